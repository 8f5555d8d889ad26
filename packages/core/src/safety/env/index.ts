export {
  BLOCKED_ENV_KEYS,
  BLOCKED_ENV_PREFIXES,
  checkCallEnv,
  isBlockedEnvKey,
  isBlockedInheritedEnvKey,
  PATH_FORBIDDEN,
  sanitizeEnv,
} from "./env.js";
