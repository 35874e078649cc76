import { en } from 'zod/locales';
import * as z from 'zod/mini';

/**
 * zod's tree-shakable build for the contract shared with the browser (a fraction of the bundle of the
 * classic API), with the English messages that make a schema failure readable: "expected boolean,
 * received string → at data.isArchived".
 */
z.config(en());

export { z };
