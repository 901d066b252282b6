import { rule } from './define';

const op = 'all' as const;

export const generalRules = [
  rule(
    'GEN-JSON-CONTENT-TYPE',
    op,
    'interface',
    ['@readonly'],
    '1',
    'Request and response bodies are JSON.',
    'every JSON response is served as application/json',
  ),
  rule(
    'GEN-ERROR-BODY',
    op,
    'canton',
    ['@readonly'],
    '7',
    'Error body shape, error codes and HTTP status codes: not shown. (Canton: JsCantonError, status derived from grpcCodeValue.)',
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
