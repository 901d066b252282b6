import { rule } from './define';

const op = 'all' as const;
const JSON_BODIES = 'Request and response bodies are JSON.';

export const generalRules = [
  rule({
    id: 'GEN-JSON-CONTENT-TYPE',
    operation: op,
    level: 'interface',
    tags: ['@readonly'],
    clause: { section: '1', text: JSON_BODIES },
    title: 'every JSON response is served as application/json',
  }),
  // Writes: it judges the answer to an accepted submission, which only a command that commits gets.
  rule({
    id: 'GEN-JSON-CONTENT-TYPE-SUBMIT',
    operation: 'submit-tree',
    level: 'interface',
    tags: ['@writes'],
    clause: { section: '1', text: JSON_BODIES },
    title: 'an accepted submission is served as application/json',
  }),
  rule({
    id: 'GEN-ERROR-BODY',
    operation: op,
    level: 'canton',
    tags: ['@readonly'],
    clause: {
      section: '7',
      text: 'Error body shape, error codes and HTTP status codes: not shown. (Canton: JsCantonError, status derived from grpcCodeValue; tapir 400 text/plain for undecodable input.)',
    },
    title: 'every error body is a JsCantonError whose HTTP status agrees with grpcCodeValue',
  }),
  rule({
    id: 'GEN-NO-5XX',
    operation: op,
    level: 'canton',
    tags: ['@readonly'],
    clause: {
      section: '7',
      text: 'Conditions stated as error or invalid cases. (Canton answers bad input with 4xx.)',
    },
    title: 'bad input never yields a 5xx',
  }),
];
