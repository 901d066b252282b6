// A deliberately failing conformance test: the target (an echo server in the self-test) answers 500 and
// echoes the request's Authorization header back in its body and headers. The run must fail, and nothing it
// writes may contain the planted token.
import { test, expect } from '../../fixtures';

test.describe('redaction sample', () => {
  test('VER-SHAPE the version response carries the version string and the features descriptor', async ({
    ledger,
  }) => {
    const res = await ledger.version();
    expect(res).toHaveStatus(200);
  });

  test('SUB-SHAPE a valid submission succeeds and its response matches the transaction tree shape', async ({
    ledger,
    commands,
  }) => {
    const res = await ledger.submitAndWaitForTransactionTree(commands.submitRequest());
    // A schema the echoed body fails, so the failure message prints the body (with the echoed token).
    expect(res.json).toMatchSchema('canton-error');
  });
});
