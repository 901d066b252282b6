// allure-playwright, with the same results written without an fsync per file. Its FileSystemWriter writes every
// result, container and attachment to a temporary file, fsyncs it and renames it: durable against a power cut
// and never half-read by `allure watch`. Neither matters here (the report is built after the run, from files the
// page cache holds), while ~600 synchronous fsyncs per run blocked the runner's one thread for over a second
// (bench/RESULTS.md, figure 5.1). Same files, same names, same content.
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Suite } from '@playwright/test/reporter';
import AllureReporter from 'allure-playwright';
import { stringifyEnvInfo, type Writer } from 'allure-js-commons/sdk/reporter';

export class PlainWriter implements Writer {
  private made = false;

  constructor(private readonly resultsDir: string) {}

  private path(name: string): string {
    if (!this.made) mkdirSync(this.resultsDir, { recursive: true });
    this.made = true;
    return join(this.resultsDir, name);
  }

  private json(name: string, data: unknown): void {
    writeFileSync(this.path(name), JSON.stringify(data), 'utf-8');
  }

  writeResult(result: Parameters<Writer['writeResult']>[0]): void {
    this.json(`${result.uuid}-result.json`, result);
  }

  writeGroup(result: Parameters<Writer['writeGroup']>[0]): void {
    this.json(`${result.uuid}-container.json`, result);
  }

  writeAttachment(distFileName: string, content: Buffer): void {
    writeFileSync(this.path(distFileName), content);
  }

  writeAttachmentFromPath(distFileName: string, from: string): void {
    copyFileSync(from, this.path(distFileName));
  }

  writeEnvironmentInfo(info: Parameters<Writer['writeEnvironmentInfo']>[0]): void {
    writeFileSync(this.path('environment.properties'), stringifyEnvInfo(info), 'utf-8');
  }

  writeCategoriesDefinitions(categories: Parameters<Writer['writeCategoriesDefinitions']>[0]): void {
    this.json('categories.json', categories);
  }

  writeGlobals(distFileName: string, info: Parameters<Writer['writeGlobals']>[1]): void {
    this.json(distFileName, info);
  }
}

export default class AllureResultsReporter extends AllureReporter {
  override onBegin(suite: Suite): void {
    super.onBegin(suite);
    // allure-playwright builds its runtime (and its writer) in onBegin, from resultsDir alone: swap the writer.
    const runtime = (this as unknown as { allureRuntime?: { writer: Writer } }).allureRuntime;
    if (runtime) runtime.writer = new PlainWriter(this.options.resultsDir ?? './allure-results');
  }
}
