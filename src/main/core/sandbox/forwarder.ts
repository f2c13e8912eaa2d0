/**
 * The relay that runs inside a Linux sandbox when the network goes through the proxy:
 * it listens on the sandbox's own loopback (the only network it has) and hands each
 * connection, unread, out over the Node IPC channel it was started with (fd passing,
 * no socket of its own: the seccomp filter refuses unix sockets), to the proxy on the
 * host. It runs the command once it is listening and exits as the command does. Plain
 * Node, passed with `-e` so nothing has to be found on disk inside the sandbox.
 * argv: port command args…
 */
export const FORWARDER_SOURCE = `
const net = require('node:net'), cp = require('node:child_process');
const [port, cmd, ...args] = process.argv.slice(1);
const server = net.createServer({ pauseOnConnect: true }, (c) => process.send('connection', c));
server.listen(Number(port), '127.0.0.1', () => {
  const child = cp.spawn(cmd, args, { stdio: 'inherit' });
  for (const s of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(s, () => child.kill(s));
  child.on('error', (e) => { process.stderr.write(String(e.message) + '\\n'); process.exit(127); });
  child.on('exit', (code, signal) => { server.close(); process.exit(code === null ? 128 : code); });
});
`

/** The loopback port the relay listens on inside the sandbox (its network namespace is its own). */
export const FORWARDER_PORT = 3128
