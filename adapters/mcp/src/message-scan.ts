/**
 * Finds the top-level `id` of a JSON-RPC message fed in chunks, without keeping the message:
 * what the server needs to answer a message too large to read. Linear in the input; keeps at
 * most a few hundred bytes.
 */
export class MessageIdScanner {
  private depth = 0;
  private inString = false;
  private escape = false;
  private expectKey = false;
  private valueOf: string | undefined;
  private lastKey = "";
  private capture: "key" | "idString" | "idLiteral" | undefined;
  private captured: number[] = [];
  /** The message's id once seen (a string or a number), else undefined. */
  id: string | number | undefined;

  write(chunk: Uint8Array): void {
    for (let i = 0; i < chunk.length; i++) this.byte(chunk[i]!);
  }

  /** Call at the end of the message: a number id that ran to the end is complete now. */
  end(): string | number | undefined {
    if (this.capture === "idLiteral") this.finishLiteral();
    return this.id;
  }

  private keep(b: number): void {
    if (this.captured.length < 512) this.captured.push(b);
  }

  private finishLiteral(): void {
    const text = Buffer.from(this.captured).toString("utf8");
    const n = Number(text);
    if (text !== "" && Number.isFinite(n)) this.id = n;
    this.capture = undefined;
  }

  private byte(b: number): void {
    if (this.inString) {
      if (this.escape) {
        this.escape = false;
        if (this.capture) this.keep(b);
      } else if (b === 0x5c /* \ */) {
        this.escape = true;
        if (this.capture) this.keep(b);
      } else if (b === 0x22 /* " */) {
        this.inString = false;
        const raw = Buffer.from(this.captured).toString("utf8");
        if (this.capture === "key") {
          try {
            this.lastKey = JSON.parse(`"${raw}"`) as string;
          } catch {
            this.lastKey = raw;
          }
        } else if (this.capture === "idString") {
          try {
            this.id = JSON.parse(`"${raw}"`) as string;
          } catch {
            // not a usable id
          }
        }
        this.capture = undefined;
      } else if (this.capture) this.keep(b);
      return;
    }
    if (this.capture === "idLiteral") {
      if (b === 0x2c || b === 0x7d || b === 0x5d || b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09)
        this.finishLiteral();
      else {
        this.keep(b);
        return;
      }
    }
    switch (b) {
      case 0x22: // "
        this.inString = true;
        this.captured = [];
        if (this.depth === 1 && this.expectKey) this.capture = "key";
        else if (this.depth === 1 && this.valueOf === "id") this.capture = "idString";
        this.valueOf = undefined;
        return;
      case 0x7b: // {
      case 0x5b: // [
        this.depth += 1;
        if (this.depth === 1) this.expectKey = b === 0x7b;
        this.valueOf = undefined;
        return;
      case 0x7d: // }
      case 0x5d: // ]
        this.depth -= 1;
        return;
      case 0x3a: // :
        if (this.depth === 1) {
          this.valueOf = this.lastKey;
          this.expectKey = false;
        }
        return;
      case 0x2c: // ,
        if (this.depth === 1) {
          this.expectKey = true;
          this.valueOf = undefined;
        }
        return;
      case 0x20:
      case 0x0a:
      case 0x0d:
      case 0x09:
        return;
      default:
        if (this.depth === 1 && this.valueOf === "id") {
          this.capture = "idLiteral";
          this.captured = [b];
        }
        this.valueOf = undefined;
    }
  }
}
