// allure-playwright's results written without an fsync per file. Its FileSystemWriter writes every result,
// container and attachment to a temporary file, fsyncs it and renames it: durable against a power cut and never
// half-read by `allure watch`. Neither matters here (the report is built after the run, from files the page
// cache holds), while the synchronous fsyncs block the runner's one thread (bench/RESULTS.md). Same files, same
// names, same content. The writer is swapped into the reporter's private runtime, which allure-playwright
// builds in onBegin; where that runtime is missing or has no writer, its own writer stays.
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { plumbingOn } from './switch';
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

/**
 * Puts a PlainWriter into an allure-playwright reporter after its onBegin; returns whether it did (false with the
 * plumbing off, or when the reporter's internals are not as written against: its own writer then stays).
 */
export function usePlainWriter(reporter: object, resultsDir: string | undefined, on = plumbingOn()): boolean {
  const runtime = (reporter as { allureRuntime?: { writer?: unknown } }).allureRuntime;
  if (!on || typeof runtime !== 'object' || runtime === null || typeof runtime.writer !== 'object')
    return false;
  runtime.writer = new PlainWriter(resultsDir ?? './allure-results');
  return true;
}
