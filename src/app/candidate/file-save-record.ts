import { createContext } from 'react';
import type { SniffedType } from '../../kyc/contract/picture-type.ts';

/**
 * Writes the audit line of a document file saved from the candidate page (a picture attribute it does not
 * show: NotShownFile), by the attribute's name and the type sniffed from its bytes; rejects with the
 * server's reason when the line could not be written, and the file is then not saved. The candidate view
 * gives it to its pictures; without it no file is offered for saving, so none leaves unrecorded.
 */
export type RecordFileSave = (name: string, type: SniffedType) => Promise<void>;

export const FileSaveContext = createContext<RecordFileSave | undefined>(undefined);
