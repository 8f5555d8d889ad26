/** pi-agent-core 1.5 declares Node >= 22.19: these tests run there (CI's Node 24 pass) and skip on older Node. */
const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
export const NODE_TOO_OLD = major < 22 || (major === 22 && minor < 19);
export const SKIP_REASON = `@earendil-works/pi-agent-core 1.5 needs Node >= 22.19 (this is ${process.versions.node})`;
if (NODE_TOO_OLD) console.info(`skipped: ${SKIP_REASON}`);
