// The self-tests' global setup: a folder for the child runs their workers share (once-across-workers.ts);
// the function returned is the global teardown, which removes it.
import { makeSharedRoot } from './once-across-workers';

export default makeSharedRoot;
