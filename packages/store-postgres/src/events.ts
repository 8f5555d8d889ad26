import pg from "pg";
import { NOTIFY_CHANNEL, type StoreEvent } from "./db.js";

type Listener = (event: StoreEvent) => void;

/**
 * One LISTEN connection per store bundle, opened on first use, fanning the notifications of
 * every process on the database out to this process's listeners. A dropped connection is
 * reopened on the next `ready()`; listeners stay registered.
 */
export class StoreEvents {
  private client: pg.Client | undefined;
  private connecting: Promise<void> | undefined;
  private readonly listeners = new Set<{ key: string; fn: Listener }>();
  private closed = false;

  constructor(private readonly config: pg.ClientConfig) {}

  /** Resolves once notifications sent from now on reach the listeners. */
  ready(): Promise<void> {
    if (this.closed) return Promise.reject(new Error("PostgreSQL store: closed"));
    this.connecting ??= this.open().catch((error) => {
      this.connecting = undefined;
      throw error;
    });
    return this.connecting;
  }

  /** Calls `fn` for each change of `kind` in `schema` (`id` "*" for every row); returns the unsubscribe. */
  on(schema: string, kind: StoreEvent["kind"], id: string, fn: Listener): () => void {
    const entry = { key: `${schema}\u0000${kind}\u0000${id}`, fn };
    this.listeners.add(entry);
    return () => {
      this.listeners.delete(entry);
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listeners.clear();
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => {});
  }

  private async open(): Promise<void> {
    const client = new pg.Client(this.config);
    client.on("error", () => {
      // the next ready() opens a new connection
      if (this.client === client) {
        this.client = undefined;
        this.connecting = undefined;
      }
    });
    client.on("notification", (message) => {
      if (message.channel !== NOTIFY_CHANNEL || !message.payload) return;
      let event: StoreEvent;
      try {
        event = JSON.parse(message.payload) as StoreEvent;
      } catch {
        return;
      }
      const exact = `${event.schema}\u0000${event.kind}\u0000${event.id}`;
      const any = `${event.schema}\u0000${event.kind}\u0000*`;
      for (const entry of [...this.listeners]) if (entry.key === exact || entry.key === any) entry.fn(event);
    });
    await client.connect();
    await client.query(`LISTEN ${NOTIFY_CHANNEL}`);
    if (this.closed) {
      await client.end();
      throw new Error("PostgreSQL store: closed");
    }
    this.client = client;
  }
}
