// `npm run report`: builds the Allure HTML from the results already in reports/allure-results (e.g. after a
// plain `npx playwright test`). Rebuilding the report of a run already in the history does not add it twice.
import { buildAllureReport } from './allure-report';

void buildAllureReport().then((code) => process.exit(code));
