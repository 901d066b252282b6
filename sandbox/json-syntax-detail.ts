// The detail Canton's JSON parser (jawn, circe's parser: typelevel/jawn
// parser/shared/src/main/scala/jawn/Parser.scala) gives for text that is not JSON, so a body JSON.parse refuses is
// answered in circe's words inside tapir's frame, never in V8's. Parser.die: "<msg> got '<up to 6 chars>[...]'
// (line L, column C)" or "got eof"; running out of input in the middle of a value is
// IncompleteParseException("exhausted input"). Covered: the structural messages (expected json value, expected ",
// expected :, expected ] or ,, expected } or ,, expected digit, expected true/false/null, expected whitespace or
// eof). Strings with control characters or bad escapes get a detail in jawn's form whose wording is not read from
// jawn's StringParser: the harness asserts only tapir's frame.
const ERROR_CONTEXT = 6; // Parser.ErrorContext

class JawnError extends Error {}

export function jsonSyntaxDetail(text: string): string {
  try {
    new Scanner(text).document();
    return 'exhausted input';
  } catch (e) {
    if (e instanceof JawnError) return e.message;
    return 'exhausted input';
  }
}

class Scanner {
  private line = 0;
  private lineStart = 0;
  constructor(private readonly s: string) {}

  private die(i: number, msg: string): never {
    let got = 'eof';
    if (i < this.s.length) {
      const txt = this.s.slice(i, i + ERROR_CONTEXT);
      got = i + ERROR_CONTEXT >= this.s.length ? `'${txt}'` : `'${txt}...'`;
    }
    throw new JawnError(`${msg} got ${got} (line ${this.line + 1}, column ${i - this.lineStart + 1})`);
  }

  /** Past the end in the middle of a value: jawn's IndexOutOfBounds → "exhausted input". */
  private at(i: number): string {
    if (i >= this.s.length) throw new JawnError('exhausted input');
    return this.s[i] as string;
  }

  private ws(i: number): number {
    for (;;) {
      const c = this.s[i];
      if (c === '\n') {
        this.line += 1;
        this.lineStart = i + 1;
      } else if (c !== ' ' && c !== '\t' && c !== '\r') return i;
      i += 1;
    }
  }

  document(): void {
    const end = this.value(this.ws(0), true);
    const rest = this.ws(end);
    if (rest < this.s.length) this.die(rest, 'expected whitespace or eof');
  }

  private value(i: number, top = false): number {
    const c = this.at(i);
    if (c === '{' || c === '[') return this.container(i);
    if (c === '"') return this.string(i);
    if (c === '-' || (c >= '0' && c <= '9')) return this.number(i, top);
    for (const word of ['true', 'false', 'null']) {
      if (c === word[0]) {
        for (let k = 1; k < word.length; k++) if (this.at(i + k) !== word[k]) this.die(i, `expected ${word}`);
        return i + word.length;
      }
    }
    return this.die(i, 'expected json value');
  }

  private container(i: number): number {
    const obj = this.at(i) === '{';
    const close = obj ? '}' : ']';
    let j = this.ws(i + 1);
    if (this.at(j) === close) return j + 1;
    for (;;) {
      if (obj) {
        if (this.at(j) !== '"') this.die(j, 'expected "');
        j = this.ws(this.string(j));
        if (this.at(j) !== ':') this.die(j, 'expected :');
        j = this.ws(j + 1);
      }
      j = this.ws(this.value(j));
      const c = this.at(j);
      if (c === close) return j + 1;
      if (c !== ',') this.die(j, obj ? 'expected } or ,' : 'expected ] or ,');
      j = this.ws(j + 1);
    }
  }

  private string(i: number): number {
    for (let j = i + 1; ; j++) {
      const c = this.at(j);
      if (c === '"') return j + 1;
      if (c < ' ') this.die(j, 'control char in string');
      if (c === '\\') {
        const e = this.at(j + 1);
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(this.s.slice(j + 2, j + 6)))
            this.die(j, 'expected valid unicode escape');
          j += 5;
        } else if ('"\\/bfnrt'.includes(e)) j += 1;
        else this.die(j, 'invalid escape sequence');
      }
    }
  }

  /** jawn's parseNum (parseNumSlow at the top level, where the end of input may end a number). */
  private number(i: number, top: boolean): number {
    const digitAt = (j: number) => {
      if (top && j >= this.s.length) return false;
      const c = this.at(j);
      return c >= '0' && c <= '9';
    };
    let j = i;
    if (this.s[j] === '-') j += 1;
    if (top && j >= this.s.length) throw new JawnError('exhausted input');
    if (this.at(j) === '0') j += 1;
    else if (digitAt(j)) while (digitAt(j)) j += 1;
    else this.die(i, 'expected digit');
    if (j < this.s.length && this.s[j] === '.') {
      j += 1;
      if (!digitAt(j)) this.die(i, 'expected digit');
      while (digitAt(j)) j += 1;
    }
    if (j < this.s.length && (this.s[j] === 'e' || this.s[j] === 'E')) {
      j += 1;
      if (this.s[j] === '+' || this.s[j] === '-') j += 1;
      if (!digitAt(j)) this.die(i, 'expected digit');
      while (digitAt(j)) j += 1;
    }
    return j;
  }
}
