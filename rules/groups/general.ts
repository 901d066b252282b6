import { rule } from './define';

const op = 'all' as const;
const JSON_BODIES = 'Request and response bodies are JSON.';

export const generalRules = [
  rule(
    'GEN-JSON-CONTENT-TYPE',
    op,
    'interface',
    ['@readonly'],
    '1',
    JSON_BODIES,
    'every JSON response is served as application/json',
  ),
  // Writes: it judges the answer to an accepted submission, which only a command that commits gets.
  rule(
    'GEN-JSON-CONTENT-TYPE-SUBMIT',
    'submit-tree',
    'interface',
    ['@writes'],
    '1',
    JSON_BODIES,
    'an accepted submission is served as application/json',
  ),
  rule(
    'GEN-ERROR-BODY',
    op,
    'canton',
    ['@readonly'],
    '7',
    'Error body shape, error codes and HTTP status codes: not shown. (Canton: JsCantonError, status derived from grpcCodeValue; tapir 400 text/plain for undecodable input.)',
    'every error body is a JsCantonError whose HTTP status agrees with grpcCodeValue',
  ),
  rule(
    'GEN-NO-5XX',
    op,
    'canton',
    ['@readonly'],
    '7',
    'Conditions stated as error or invalid cases. (Canton answers bad input with 4xx.)',
    'bad input never yields a 5xx',
  ),
];
