// What the submission faults share: reading a tree or an error out of a response, and rewriting them.
import { type FastifyRequest } from 'fastify';
import { type CantonError, type JsCantonError } from '../../errors';
import { type ResponseView } from '../types';

export type Json = Record<string, unknown>;
export type EventEntry = { kind: string; value: Json };

export function treeOf(res: ResponseView): Json | undefined {
  if (res.status !== 200) return undefined;
  const tree = (res.body as { transactionTree?: unknown } | null)?.transactionTree;
  return tree !== null && typeof tree === 'object' ? (tree as Json) : undefined;
}

export function eventsOf(tree: Json): EventEntry[] {
  const byId = (tree.eventsById ?? {}) as Record<string, Record<string, { value: Json }>>;
  return Object.values(byId).flatMap((entry) =>
    Object.entries(entry).map(([kind, v]) => ({ kind, value: v.value })),
  );
}

/** A rewrite of successful trees: `change` edits the tree in place (the body is a fresh parse). */
export const onTree =
  (change: (tree: Json, req: FastifyRequest) => void) =>
  (res: ResponseView, req: FastifyRequest): ResponseView | undefined => {
    const tree = treeOf(res);
    if (tree === undefined) return undefined;
    change(tree, req);
    return res;
  };

export const errorOf = (res: ResponseView): JsCantonError | undefined =>
  res.status >= 400 && res.body !== null && typeof res.body === 'object' && 'code' in res.body
    ? (res.body as JsCantonError)
    : undefined;

/** A rewrite of the Canton errors `match` selects into `replace(error)`. */
export const onError =
  (match: (e: JsCantonError) => boolean, replace: (e: JsCantonError) => CantonError) =>
  (res: ResponseView): ResponseView | undefined => {
    const e = errorOf(res);
    if (e === undefined || !match(e)) return undefined;
    const next = replace(e);
    return { ...res, status: next.status, body: next.body };
  };

export const field = (name: string) => (e: JsCantonError) => e.context.field_name === name;
export const causeHas = (text: string) => (e: JsCantonError) => e.cause.includes(text);
