/**
 * The launcher program: a small Node process started once, early, that starts processes on behalf
 * of a large one. Forking copies the parent's page tables, and the parent's event loop waits until
 * the child has exec'd: for a process with hundreds of MB resident that takes from several to
 * hundreds of milliseconds on a loaded machine. From this process (~40 MB) it takes about one, and
 * the wait is on its loop, not the owner's.
 *
 * Pipes: the launcher keeps a pool of connected unix socket pairs (made through a listening socket
 * in a private 0700 folder) and hands one end of each to the owner ahead of time, so a spawn needs
 * one message each way and no handle passing: the child gets the kept ends as its stdin, stdout or
 * stderr (a pipe of Node's own spawn is such a socket pair too), and the owner reads and writes its
 * ends itself — nothing is relayed through here. The kept ends are never read by the launcher.
 *
 * Protocol over the Node IPC channel (JSON), argv: pool size
 *   out: {type:'ready', dir} (its private folder, for the owner to remove should the launcher be killed)
 *        {type:'pipe', id} with the owner's end of a new pair as the message's handle
 *        {type:'spawned', id, pid}; {type:'failed', id, error} (it did not start);
 *        {type:'error', id, error} (a signal could not be sent); {type:'exit', id, code, signal}
 *        {type:'poolError', error} (no more pairs could be made)
 *   in:  {type:'spawn', id, file, args, cwd, env, detached, stdio:[k0,k1,k2], pipes:[id|null ×3], argv0?}
 *        k = pipe|ignore|inherit; `pipes` names the pool pair of each `pipe`
 *        {type:'kill', id, signal}
 * When the channel closes, its owner exits (it is re-parented) or it gets SIGTERM, the launcher
 * exits; the processes it started keep running, as they would had their owner started them itself.
 * Plain Node passed with `-e`, so nothing has to be found on disk (or outside an asar archive).
 */
export const LAUNCHER_SOURCE = `
const cp = require('node:child_process'), net = require('node:net'), fs = require('node:fs'), os = require('node:os'), path = require('node:path');
const POOL = Number(process.argv[1]) || 12;
const children = new Map(), kept = new Map(), accepting = [];
let nextPipe = 1, handedOut = 0, filling = false;
const send = (message, handle) => { if (process.connected) process.send(message, handle); };
const failure = (e) => ({ message: String(e.message), code: e.code, errno: e.errno, syscall: e.syscall, path: e.path });
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hotaru-launch-'));
const address = path.join(dir, 'pipes');
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
const server = net.createServer({ pauseOnConnect: true }, (socket) => {
  const take = accepting.shift();
  if (take) take(socket); else socket.destroy();
});
const pair = () => new Promise((resolve, reject) => {
  const client = net.connect(address);
  client.once('error', reject);
  accepting.push((accepted) => client.connecting ? client.once('connect', () => resolve([client, accepted])) : resolve([client, accepted]));
});
async function fill() {
  if (filling) return;
  filling = true;
  try {
    while (handedOut < POOL && process.connected) {
      const [client, accepted] = await pair();
      const id = nextPipe++;
      kept.set(id, accepted);
      // A kept end is never read or written here; should it fail anyway, it leaves the pool.
      accepted.once('error', () => { if (kept.delete(id)) handedOut--; accepted.destroy(); });
      handedOut++;
      send({ type: 'pipe', id }, client);
    }
  } catch (e) {
    send({ type: 'poolError', error: failure(e) });
  } finally {
    filling = false;
  }
}
server.listen(address, () => { send({ type: 'ready', dir }); fill(); });
process.on('message', (m) => {
  if (m.type === 'kill') {
    const child = children.get(m.id);
    if (child) child.kill(m.signal);
    return;
  }
  if (m.type !== 'spawn') return;
  const ends = m.pipes.map((id) => (id === null ? undefined : kept.get(id)));
  for (const id of m.pipes) if (id !== null && kept.delete(id)) handedOut--;
  const release = () => { for (const end of ends) if (end) end.destroy(); fill(); };
  const stdio = m.stdio.map((kind, fd) => (kind === 'pipe' ? ends[fd] : kind));
  if (stdio.some((entry) => entry === undefined)) {
    release();
    send({ type: 'failed', id: m.id, error: { message: 'the launcher has no such pipe' } });
    return;
  }
  let child;
  try {
    child = cp.spawn(m.file, m.args, { cwd: m.cwd, env: m.env, detached: m.detached, stdio, argv0: m.argv0 });
  } catch (e) {
    release();
    send({ type: 'failed', id: m.id, error: failure(e) });
    return;
  }
  release();
  if (child.pid === undefined) {
    child.once('error', (e) => send({ type: 'failed', id: m.id, error: failure(e) }));
    return;
  }
  children.set(m.id, child);
  send({ type: 'spawned', id: m.id, pid: child.pid });
  child.on('error', (e) => send({ type: 'error', id: m.id, error: failure(e) }));
  child.on('exit', (code, signal) => {
    children.delete(m.id);
    send({ type: 'exit', id: m.id, code, signal });
  });
});
// The owner going away ends the launcher. 'disconnect' alone is not enough: it is held back while a
// pipe handed out waits for its acknowledgement, which a closed channel never brings.
const owner = process.ppid;
process.on('disconnect', () => process.exit(0));
// A message the channel could no longer take (the owner closed it as this one went out): the owner is going away.
process.on('error', (e) => { if (e.code === 'EPIPE' || e.code === 'ERR_IPC_CHANNEL_CLOSED') process.exit(0); else throw e; });
setInterval(() => { if (process.ppid !== owner) process.exit(0); }, 1000).unref();
process.on('SIGTERM', () => process.exit(0));
// Ctrl+C at the terminal reaches the whole foreground group: the owner decides what happens then.
process.on('SIGINT', () => {});
`
