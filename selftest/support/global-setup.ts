// The self-tests' global setup: one line up front when Chromium is missing (the browser tests will skip, and
// a skip is easy to miss in the list), and a folder for the child runs their workers share
// (once-across-workers.ts); the function returned is the global teardown, which removes it.
import { chromiumNotice } from './chromium';
import { makeSharedRoot } from './once-across-workers';

export default function globalSetup(): () => void {
  const notice = chromiumNotice();
  if (notice) console.log(notice);
  return makeSharedRoot();
}
