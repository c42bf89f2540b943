// Runs a `txmail` command in this process: main() from source, with its own environment and with its
// output caught, as bin/txmail would run it. A child process costs about half a second of module
// loading per command; the tests of what a command does use this, and a few tests run the real
// program (test/helpers/process.ts runCli) to keep the binary itself checked.
import { main } from '../../src/cli.js';

export interface CommandResult {
  stdout: string;
  stderr: string;
  code: number;
}

export async function runCommand(args: string[], env: Record<string, string>): Promise<CommandResult> {
  let stdout = '';
  let stderr = '';
  const io = {
    env: { ...process.env, ...env },
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
  };
  let code: number;
  try {
    code = await main(args, io);
  } catch (err) {
    // What bin/txmail does with an error main() did not turn into an exit code.
    stderr += `${err instanceof Error ? err.message : String(err)}\n`;
    code = 1;
  }
  return { stdout, stderr, code };
}
