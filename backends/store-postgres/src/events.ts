import pg from "pg";
import { NOTIFY_CHANNEL, type StoreEvent } from "./db.js";

type Listener = (event: StoreEvent) => void;

/**
 * One LISTEN connection per store bundle, opened on first use, fanning the notifications of
 * every process on the database out to this process's listeners. A dropped connection is
 * reopened at once while anyone listens (then each listener is called, since notices sent
 * meanwhile are lost), or on the next `ready()`; listeners stay registered.
 */
export class StoreEvents {
  private client: pg.Client | undefined;
  private connecting: Promise<void> | undefined;
  private readonly listeners = new Set<{
    schema: string;
    kind: StoreEvent["kind"];
    id: string;
    fn: Listener;
  }>();
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
    const entry = { schema, kind, id, fn };
    this.listeners.add(entry);
    return () => {
      this.listeners.delete(entry);
    };
  }

  /**
   * `on`, resolved once listening: the subscription a store's `onChange` hands out (the listener
   * gets the id, or `"*"` after the connection was re-opened, and the notice's `at` when it has one).
   */
  async subscribe(
    schema: string,
    kind: StoreEvent["kind"],
    listener: (id: string, at?: number | null) => void,
  ): Promise<() => void> {
    const off = this.on(schema, kind, "*", (event) =>
      event.at === undefined ? listener(event.id) : listener(event.id, event.at),
    );
    try {
      await this.ready();
    } catch (error) {
      off();
      throw error;
    }
    return off;
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
    const lost = () => {
      if (this.client !== client) return;
      this.client = undefined;
      this.connecting = undefined;
      client.end().catch(() => {});
      // notifications sent while the connection was down are gone: once listening again, every
      // listener is told to look (with its own id, or "*"), and re-reads what it follows
      if (!this.closed && this.listeners.size > 0)
        this.ready().then(
          () => {
            for (const { schema, kind, id, fn } of [...this.listeners]) fn({ schema, kind, id });
          },
          () => {},
        );
    };
    client.on("error", lost);
    client.on("end", lost);
    client.on("notification", (message) => {
      if (message.channel !== NOTIFY_CHANNEL || !message.payload) return;
      let event: StoreEvent;
      try {
        event = JSON.parse(message.payload) as StoreEvent;
      } catch {
        return;
      }
      for (const entry of [...this.listeners])
        if (
          entry.schema === event.schema &&
          entry.kind === event.kind &&
          (entry.id === event.id || entry.id === "*")
        )
          entry.fn(event);
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
