/**
 * The relay that runs inside a Linux sandbox when the network goes through the proxy:
 * it listens on the sandbox's own loopback (the only network it has), passes each
 * connection to the proxy's unix socket bound in from outside, and runs the command
 * once it is listening, exiting as the command does. Plain Node, passed with `-e`
 * so nothing has to be found on disk inside the sandbox.
 * argv: socketPath port command args…
 */
export const FORWARDER_SOURCE = `
const net = require('node:net'), cp = require('node:child_process');
const [sock, port, cmd, ...args] = process.argv.slice(1);
const server = net.createServer((c) => {
  const u = net.connect(sock);
  c.pipe(u).pipe(c);
  c.on('error', () => u.destroy());
  u.on('error', () => c.destroy());
});
server.listen(Number(port), '127.0.0.1', () => {
  const child = cp.spawn(cmd, args, { stdio: 'inherit' });
  for (const s of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(s, () => child.kill(s));
  child.on('error', (e) => { process.stderr.write(String(e.message) + '\\n'); process.exit(127); });
  child.on('exit', (code, signal) => { server.close(); process.exit(code === null ? 128 : code); });
});
`

/** The loopback port the relay listens on inside the sandbox (its network namespace is its own). */
export const FORWARDER_PORT = 3128
