export { PgCronStore } from "./cron-store.js";
export type { StoreEvent } from "./db.js";
export { PgLeaderLease } from "./leader-lease.js";
export { MIGRATIONS } from "./migrations.js";
export { Membership, memberLockClass } from "./member.js";
export {
  DEFAULT_MAX_CONNECTIONS,
  describeLocation,
  openPostgresStore,
  type PostgresStore,
  type PostgresStoreOptions,
} from "./open.js";
export { PgRunRegistry } from "./run-registry.js";
export { PgSessionStore } from "./session-store.js";
export { PgTaskStore } from "./task-store.js";
