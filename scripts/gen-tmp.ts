import { buildAllureReport, preloadAllure, reportPaths } from './allure-report';
import { cpSync, rmSync } from 'node:fs';
(async () => {
  preloadAllure();
  await new Promise((r) => setTimeout(r, 3000));
  for (let i = 0; i < 4; i++) {
    rmSync('/tmp/rep', { recursive: true, force: true });
    cpSync('/work/main/reports', '/tmp/rep', { recursive: true });
    cpSync('/tmp/hist-main.jsonl', '/tmp/rep/history/history.jsonl');
    rmSync('/tmp/rep/history/last-run-id', { force: true });
    const t = performance.now(); const c = process.cpuUsage();
    await buildAllureReport(reportPaths('/tmp/rep'));
    const u = process.cpuUsage(c);
    console.log('wall', (performance.now() - t).toFixed(0), 'cpu', ((u.user + u.system) / 1000).toFixed(0));
  }
})();
