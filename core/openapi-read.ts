// Reads a participant's own API description (GET /docs/openapi) and extracts the facts of the three operations
// with spec/'s extractor, so a live description and a shipped one are read alike. Asked first without a token
// (Canton treats the document as public) and again with the run's token when the participant asks for one. A
// participant that does not serve it, refuses it or serves something unreadable is one line, never a failure.
import { YAMLError } from 'yaml';
import { extractDescription } from '../spec/extract';
import type { DescriptionFacts } from '../spec/facts';
import { PATHS } from './api-paths';
import { REQUEST_TIMEOUT_MS, Transport, type HttpResponse } from './http';
import { redactWithUrls } from './redact';
import type { Settings } from './settings';
import { tokenProviderFor } from './token-providers';

export type DescriptionState = 'read' | 'not-served' | 'refused' | 'unreadable';

export interface DescriptionRead {
  state: DescriptionState;
  /** One line for the run information: never a token, never the body. */
  line: string;
  facts?: DescriptionFacts;
}

const WHERE = `GET ${PATHS.description}`;

async function fetchDescription(s: Settings, baseUrl: string): Promise<HttpResponse> {
  const transport = new Transport(REQUEST_TIMEOUT_MS * s.timeoutScale);
  try {
    const send = (token?: string) =>
      transport.send({
        method: 'GET',
        url: `${baseUrl}${PATHS.description}`,
        headers: {
          accept: 'application/yaml, application/json, text/plain',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
      });
    const first = await send();
    if ((first.status !== 401 && first.status !== 403) || s.auth.kind === 'none') return first;
    return await send(await tokenProviderFor(s).token());
  } finally {
    await transport.close();
  }
}

/** What the participant's description says of the three operations, or the one line why there is none. */
export async function readDescription(s: Settings, baseUrl: string): Promise<DescriptionRead> {
  let res: HttpResponse;
  try {
    res = await fetchDescription(s, baseUrl);
  } catch (e) {
    return { state: 'unreadable', line: redactWithUrls(`not read (${WHERE}: ${(e as Error).message})`) };
  }
  if (res.status === 404) return { state: 'not-served', line: `not served (${WHERE} answered 404)` };
  if (res.status === 401 || res.status === 403)
    return { state: 'refused', line: `not read (${WHERE} answered ${res.status} to the run's credentials)` };
  if (res.status !== 200) return { state: 'unreadable', line: `not read (${WHERE} answered ${res.status})` };
  try {
    return { state: 'read', line: 'read', facts: extractDescription(res.text) };
  } catch (e) {
    // A parser's message quotes the text it choked on, which is the participant's: never repeated here.
    const why = e instanceof YAMLError ? 'neither YAML nor JSON' : (e as Error).message.slice(0, 160);
    return { state: 'unreadable', line: redactWithUrls(`not read (${WHERE}: ${why})`) };
  }
}
