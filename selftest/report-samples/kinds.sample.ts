// Verdict kinds a run against a faulty sandbox does not produce on its own, for the report self-tests: a target
// that stops answering (inconclusive, with its transcript) and two defects of the harness itself (a title
// naming no catalogued rule, a TypeError in a spec). Run only through selftest/support/report-run.config.ts.
import { test, expect } from '../../fixtures';
import { LedgerClient } from '../../core/ledger-client';

test.describe('report samples', () => {
  test('GEN-NO-5XX no operation answers with a 5xx status (sample: the target stopped answering)', async ({
    transport,
    tokens,
    evidence,
  }) => {
    // Port 9 (discard) on the loopback: nothing listens, the connection is refused at once.
    const gone = new LedgerClient(
      transport,
      'http://127.0.0.1:9',
      () => tokens.token(),
      evidence,
      (name, body) => test.step(name, body, { box: true }),
    );
    const res = await gone.version();
    expect(res).toHaveStatus(200);
  });

  test('SAMPLE-UNCATALOGUED a title naming no rule of the catalogue', () => {
    expect(true).toBe(true);
  });

  test('GEN-ERROR-BODY every error answer is a JsCantonError (sample: a TypeError in the spec)', async ({
    ledger,
  }) => {
    const res = await ledger.version();
    const features = (res.json as { noSuchField?: { list: string[] } }).noSuchField;
    expect(features!.list.length).toBeGreaterThan(0);
  });
});
