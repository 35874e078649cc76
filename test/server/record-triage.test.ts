import { describe, expect, it } from 'vitest';
import { AnswerScan } from '../../src/server/answer/answer-scan.ts';
import { type RecordTriage, watchRecord } from '../../src/server/answer/record-triage.ts';

/**
 * The queue's word for a record, as the server learns it from a compliance user's lookup: a pass only if
 * every certificate was read and states one. The server reads at most 16 certificates of a record: one it
 * did not read is one it cannot vouch for.
 */

const cert = (result: string) => JSON.stringify({ Claim: { _customFields: { result } } });

function triageOf(certs: unknown): RecordTriage | undefined {
  const scan = new AnswerScan();
  let learnt: RecordTriage | undefined;
  watchRecord(
    scan,
    (_record, triage) => {
      learnt = triage;
    },
    () => true,
  );
  const body = { success: true, data: { status: 'waiting', refId: 'r-1', blockPassID: 'bp', isArchived: false, certs } };
  scan.write(Buffer.from(JSON.stringify(body)));
  scan.end();
  return learnt;
}

const many = (count: number, result: (index: number) => string) =>
  Object.fromEntries(Array.from({ length: count }, (_, index) => [`provider-${index}-cert`, cert(result(index))]));

describe("the server's reading of a record's certificates for the queue", () => {
  it('reads sixteen clear certificates as clear', () => {
    expect(triageOf(many(16, () => 'clear'))?.certificate).toBe('clear');
  });

  it('attack: a match hidden as a 17th certificate, past those the server reads, does not give the row a clear', () => {
    const triage = triageOf(many(17, (index) => (index === 16 ? 'match' : 'clear')));
    expect(triage?.certificate).not.toBe('clear');
    expect(triage?.certificate).toBe('unreadable');
  });

  it('reads certs sent as JSON text as the page reads them (the queue said nothing of them): a match in them is the row’s word', () => {
    expect(triageOf(JSON.stringify({ 'a-cert': cert('clear'), 'b-cert': cert('potential_match') }))?.certificate).toBe('potential_match');
    expect(triageOf(JSON.stringify(many(16, () => 'clear')))?.certificate).toBe('clear');
  });

  it('attack: certs sent as text that holds no map, or a 17th certificate in it, never give the row a clear', () => {
    expect(triageOf(JSON.stringify(many(17, (index) => (index === 16 ? 'match' : 'clear'))))?.certificate).toBe('unreadable');
    expect(triageOf(`{"a-cert": ${JSON.stringify(cert('clear'))},,`)?.certificate).toBe('unreadable');
  });

  it('attack: a match sent as the certificate document itself (an object, not its text) does not leave the row a clear (the queue read only text)', () => {
    const match = { Claim: { _customFields: { result: 'potential_match' } } };
    // Before: the object was passed over, and the row's word was the other certificate's clear.
    expect(triageOf({ 'a-cert': cert('clear'), 'b-cert': match })?.certificate).toBe('potential_match');
    expect(triageOf({ 'a-cert': { Claim: { _customFields: { result: 'clear' } } } })?.certificate).toBe('clear');
    // As text holding the map, the same.
    expect(triageOf(JSON.stringify({ 'a-cert': cert('clear'), 'b-cert': match }))?.certificate).toBe('potential_match');
  });

  it('attack: a certificate sent as a number, true or null, which the page names unread, never gives the row a clear', () => {
    for (const odd of [7, true, null]) {
      expect(triageOf({ 'a-cert': cert('clear'), 'b-cert': odd })?.certificate).toBe('unreadable');
      expect(triageOf(JSON.stringify({ 'a-cert': cert('clear'), 'b-cert': odd }))?.certificate).toBe('unreadable');
    }
  });

  it('attack: documents past the bound of sixteen certificates, or larger than their texts may be together, never give the row a clear', () => {
    const clear = { Claim: { _customFields: { result: 'clear' } } };
    const documents = Object.fromEntries(Array.from({ length: 17 }, (_, index) => [`provider-${index}-cert`, clear]));
    expect(triageOf(documents)?.certificate).toBe('unreadable');
    expect(triageOf({ 'a-cert': { ...clear, padding: 'x'.repeat(17 * 64 * 1024) } })?.certificate).toBe('unreadable');
    expect(triageOf({ ...many(15, () => 'clear'), 'last-cert': clear })?.certificate).toBe('clear');
  });

  it('attack: a document whose member names are long or many, past the bound its values keep to, never gives the row a clear (and is not held whole)', () => {
    const clear = { Claim: { _customFields: { result: 'clear' } } };
    expect(triageOf({ 'a-cert': { ...clear, ['k'.repeat(2 * 1024 * 1024)]: 0 } })?.certificate).toBe('unreadable');
    const names = Object.fromEntries(Array.from({ length: 40_000 }, (_, index) => [`member-name-of-thirty-letters-${index}`, 0]));
    expect(triageOf({ 'a-cert': { ...clear, ...names } })?.certificate).toBe('unreadable');
  });

  it('certificates sent as a list or as a number, which the page names unread, never give the row a clear; null is none', () => {
    expect(triageOf([cert('clear')])?.certificate).toBe('unreadable');
    expect(triageOf([])?.certificate).toBe('unreadable');
    expect(triageOf(7)?.certificate).toBe('unreadable');
    expect(triageOf(true)?.certificate).toBe('unreadable');
    expect(triageOf(null)).not.toHaveProperty('certificate');
  });
});
