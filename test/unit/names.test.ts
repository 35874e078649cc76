import { describe, expect, it } from 'vitest';
import type { CandidateRecord } from '../../src/kyc/contract/schema.ts';
import { candidateName, candidatePersonName, personName } from '../../src/kyc/contract/candidate-name.ts';

describe('personName', () => {
  it('writes Latin-script names of most countries given name first', () => {
    expect(personName('Amélie', 'Dubois-Léger', 'FRA')).toEqual({
      full: 'Amélie Dubois-Léger',
      familyFirst: false,
      documentOrder: 'DUBOIS-LÉGER, AMÉLIE',
    });
    expect(personName('Kwame', 'Mensah')?.full).toBe('Kwame Mensah');
  });

  it('writes CJK names family first without a space, whatever the country', () => {
    expect(personName('秀英', '王', 'HKG')).toEqual({ full: '王秀英', familyFirst: true, documentOrder: '王, 秀英' });
    expect(personName('秀英', '王')?.full).toBe('王秀英');
    expect(personName('太郎', '山田', 'USA')?.full).toBe('山田太郎');
    expect(personName('민준', '김')?.full).toBe('김민준');
  });

  it.each(['CHN', 'TWN', 'HKG', 'JPN', 'KOR', 'VNM', 'HUN', 'vnm'])('writes Latin-script names from %s family first', (country) => {
    expect(personName('Minh Khai', 'Nguyễn Thị', country)).toMatchObject({
      full: 'Nguyễn Thị Minh Khai',
      familyFirst: true,
      documentOrder: 'NGUYỄN THỊ, MINH KHAI',
    });
  });

  it('copes with one part missing or blank', () => {
    expect(personName('  ', 'Wang', 'CHN')).toEqual({ full: 'Wang', familyFirst: true, documentOrder: 'WANG' });
    expect(personName('Xiuying', undefined)).toEqual({ full: 'Xiuying', familyFirst: false, documentOrder: 'XIUYING' });
    expect(personName(undefined, ' ')).toBeUndefined();
  });
});

describe('the candidate name from a record', () => {
  const record = (identities: Record<string, string>): CandidateRecord => ({
    status: 'approved',
    isArchived: false,
    blockPassID: 'bp',
    identities: Object.fromEntries(Object.entries(identities).map(([name, value]) => [name, { type: 'string', value }])),
  });

  it('takes the country from the address, else from the phone number', () => {
    const address = JSON.stringify({ address: '1 Main St', country: 'HUN' });
    expect(candidateName(record({ given_name: 'Ferenc', family_name: 'Puskás', address }))).toBe('Puskás Ferenc');
    const phone = JSON.stringify({ countryCode: 'VNM', phoneNumber: '+84912345678' });
    expect(candidatePersonName(record({ given_name: 'Lan', family_name: 'Trần', phone }))).toMatchObject({
      full: 'Trần Lan',
      familyFirst: true,
    });
    expect(candidateName(record({ given_name: 'Ferenc', family_name: 'Puskás', address: 'not json' }))).toBe('Ferenc Puskás');
  });
});
