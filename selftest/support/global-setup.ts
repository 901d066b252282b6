// The self-tests' global setup: one line up front when Chromium is missing (the browser tests will skip, and
// a skip is easy to miss in the list), a folder for the child runs their workers share
// (once-across-workers.ts), and, in a run of the whole suite, those shared runs started at once
// (shared-runs.ts); the function returned is the global teardown, which waits for them and removes the folder.
import { chromiumNotice } from './chromium';
import { makeSharedRoot } from './once-across-workers';
import { prefetchSharedRuns } from './shared-runs';

export default function globalSetup(): () => Promise<void> {
  const notice = chromiumNotice();
  if (notice) console.log(notice);
  const removeRoot = makeSharedRoot();
  const stopRuns = prefetchSharedRuns();
  return async () => {
    await stopRuns();
    removeRoot();
  };
}
