// A JSON file a run left, read leniently: absent or unreadable is undefined (an older run, a run cut short).
import { existsSync, readFileSync } from 'node:fs';

export function readJsonFile<T>(path: string): T | undefined {
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch {
    return undefined;
  }
}
