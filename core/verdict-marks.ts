// The marks the harness leaves on a test for the reporters to judge it by: annotation types shared by
// fixtures/ (which write them) and reporters/ (which read them). One definition, imported by both.

/** A pinned known deviation whose alternative the test saw: the target does what Canton does. */
export const DEVIATION_SEEN = 'deviation-seen';
/** A pinned known deviation the target did not show: the test failed otherwise (its reason says how). */
export const DEVIATION_UNMET = 'deviation-unmet';
/** An expectations entry (`<layer>#<n>`) naming this test on this version, expired or not. */
export const EXPECTATION = 'expectation';
/** An entry naming this test that is past its `until` day: it no longer excuses. */
export const EXPECTATION_EXPIRED = 'expectation-expired';
/** The command that reruns exactly this test (fixtures/rerun.ts), for a test that did not pass as expected. */
export const RERUN_ANNOTATION = 'rerun';
