import type { Command } from 'commander'

/**
 * `sheaf mcp`: MCP over stdio for a desktop assistant, against a running Sheaf. Standard output is the
 * protocol's; every word for people goes to standard error. The token comes from SHEAF_TOKEN only, so it
 * never shows in a process list.
 */
export function registerMcpCommand(program: Command): void {
  program.command('mcp').description('speak MCP on standard input/output for an AI assistant (needs SHEAF_TOKEN and a running Sheaf)')
    .option('--url <url>', 'where Sheaf answers (default $SHEAF_URL, else http://127.0.0.1:$SHEAF_PORT or 5717)')
    .action(async (o: { url?: string }) => {
      const { runMcpStdio, resolveMcpClientConfig } = await import('../app/mcp-stdio.ts')
      const client = resolveMcpClientConfig()
      if (!client.token) throw new Error('set SHEAF_TOKEN to a personal API token (create one in Settings or with `sheaf token create`)')
      const { closed } = await runMcpStdio({ url: o.url ?? client.url, secret: client.token, warn: (line) => process.stderr.write(`${line}\n`) })
      process.stdin.once('end', () => process.exit(0))
      await closed
    })
}
