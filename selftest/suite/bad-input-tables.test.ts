// GEN-NO-5XX's tables build their long bodies as bytes (tests/general.bad-input.ts): the bytes must be exactly
// the JSON text JSON.stringify writes for the same object, key order included.
import { expect, test } from '../support/test';
import { withLongString } from '../../tests/general.bad-input';

test('withLongString writes what JSON.stringify writes, byte for byte', () => {
  const submission = {
    commands: [{ CreateCommand: { templateId: '#p:M:T' } }],
    commandId: '',
    actAs: ['a::1'],
  };
  for (const [base, length] of [
    [{}, 0],
    [{}, 5],
    [submission, 1024],
    [{ x: 1, y: 'é' }, 3], // the key exists already: it keeps its place
  ] as const) {
    const expected = Buffer.from(JSON.stringify({ ...base, x: 'x'.repeat(length) }));
    expect(withLongString(base, 'x', length).equals(expected), JSON.stringify(base)).toBe(true);
  }
});
