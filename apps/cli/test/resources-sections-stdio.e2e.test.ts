// The sections' resources through the built CLI over stdio (see support/section-resources.ts), as
// a desktop host runs it: a is one serve working where it started; b another serve on the same
// state directory, acting as another agent in a workspace of its own.
import { type Host, sectionResourcesSuite } from "./support/section-resources.js";
import { connectCli } from "./support/serve.js";

sectionResourcesSuite("clawtools serve (stdio): the sections' resources", async (serve) => {
  const open = async (args: string[]): Promise<Host> => {
    const { client } = await connectCli(["serve", ...serve.args, ...args], {
      cwd: serve.workspace,
      env: serve.env,
      name: "e2e-resources-sections-stdio",
    });
    return { client, close: () => client.close() };
  };
  const [a, b] = await Promise.all([
    open([]),
    open(["--workspace", serve.elsewhere, "--agent-id", "someone-else"]),
  ]);
  return {
    a,
    b,
    stop: async () => {
      await Promise.allSettled([a.close(), b.close()]);
    },
  };
});
