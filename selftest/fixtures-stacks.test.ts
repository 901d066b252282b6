// A request step's location and a failing request's stack name the line that called the client, source-mapped
// (this file is TypeScript, transpiled by Playwright), as a boxed step's did.
import { test, expect } from '@playwright/test';
import { callerStack } from '../fixtures/stacks';

/** Stands in for the client: whoever calls it is the caller. */
function client() {
  return callerStack(client);
}

test('the location is the calling line of this file, source-mapped', () => {
  const [caller, here] = [client(), new Error().stack!.split('\n')[1]!];
  expect(caller.location?.file).toBe(__filename);
  expect(caller.location?.line).toBe(Number(/:(\d+):\d+\)?$/.exec(here)![1]));
});

test('a failure gets the caller stack, its message kept', () => {
  const caller = client();
  const failure = new Error('[inconclusive] GET /v2/version got no response');
  caller.pointAtCaller(failure);
  const lines = failure.stack!.split('\n');
  expect(lines[0]).toBe('[inconclusive] GET /v2/version got no response');
  expect(lines[1]).toContain(`${__filename}:${caller.location?.line}:`);
  caller.pointAtCaller('not an error'); // ignored, no throw
});
