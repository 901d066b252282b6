// `npm run report`: builds the Allure HTML from the results already in reports/allure-results (e.g. after a
// plain `npx playwright test`). Rebuilding the report of a run already in the history does not add it twice.
import { answerHelp } from '../../core/cli-help';
import { buildAllureReport } from './allure-report';

answerHelp(`Usage: npm run report
Builds the Allure report (reports/allure, and reports/allure-single.html) from the results already in
reports/allure-results, e.g. after a plain npx playwright test. npm run conformance builds it itself.`);
void buildAllureReport().then((code) => process.exit(code));
