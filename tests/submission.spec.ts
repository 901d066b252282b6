// Submitting a command and waiting for its tree (interface document §2.1, §2.6, §4.1).
import { test, expect } from '../fixtures';

test.describe('POST /v2/commands/submit-and-wait-for-transaction-tree', () => {
  test('SUB-SHAPE a valid submission succeeds and its response matches the transaction tree shape', async ({
    ledger,
    commands,
  }) => {
    const res = await ledger.submitAndWaitForTransactionTree(commands.submitRequest());
    expect(res).toHaveStatus(200);
    expect(res.json).toMatchSchema('submit-response');
  });

  test('SUB-ECHO-IDS the tree echoes the commandId and workflowId of the command', async ({
    ledger,
    commands,
  }) => {
    const req = commands.submitRequest();
    const res = await ledger.submitAndWaitForTransactionTree(req);
    expect(res).toHaveStatus(200);
    const tree = res.body.transactionTree;
    expect(tree?.commandId, 'transactionTree.commandId').toBe(req.commandId);
    expect(tree?.workflowId, 'transactionTree.workflowId').toBe(req.workflowId);
  });
});
