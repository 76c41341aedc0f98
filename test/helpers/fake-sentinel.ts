import { createServer, type Server, type Socket } from 'node:net';

/**
 * A Sentinel that a test steers: it names the primary the test gives it (`SENTINEL
 * get-master-addr-by-name`), knows no other Sentinel, and sends `+switch-master` announcements when
 * the test says, to every client subscribed to them. Real Sentinels refuse PUBLISH from clients and
 * announce on their own schedule; the failover follower's decisions need announcements at chosen
 * moments, with chosen addresses (src/platform/redis-options.ts).
 */
export class FakeSentinel {
  primary: { host: string; port: number };
  readonly #server: Server;
  readonly #subscribers = new Set<Socket>();
  readonly #sockets = new Set<Socket>();

  private constructor(server: Server, primary: { host: string; port: number }) {
    this.#server = server;
    this.primary = primary;
  }

  static async start(primary: { host: string; port: number }): Promise<FakeSentinel> {
    // Made before the first connection: the server only listens below.
    const server = createServer((socket) => sentinel.serve(socket));
    const sentinel = new FakeSentinel(server, primary);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return sentinel;
  }

  get port(): number {
    return (this.#server.address() as { port: number }).port;
  }

  /** How many clients are subscribed to `+switch-master` now. */
  get subscribers(): number {
    return this.#subscribers.size;
  }

  /** Announces that `name`'s primary moved to `to`. */
  announce(name: string, to: { host: string; port: number }): void {
    const message = `${name} 127.0.0.1 1 ${to.host} ${to.port}`;
    for (const socket of this.#subscribers) socket.write(resp(['message', '+switch-master', message]));
  }

  async stop(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    await new Promise((resolve) => this.#server.close(resolve));
  }

  private serve(socket: Socket): void {
    this.#sockets.add(socket);
    socket.on('close', () => {
      this.#sockets.delete(socket);
      this.#subscribers.delete(socket);
    });
    socket.on('error', () => {});
    let buffer = '';
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (let parsed = parseCommand(buffer); parsed; parsed = parseCommand(buffer)) {
        buffer = buffer.slice(parsed.length);
        socket.write(this.answer(socket, parsed.command));
      }
    });
  }

  private answer(socket: Socket, [name = '', ...args]: string[]): string {
    const command = name.toUpperCase();
    const what = args[0]?.toLowerCase();
    if (command === 'SENTINEL' && what === 'get-master-addr-by-name') return resp([this.primary.host, String(this.primary.port)]);
    if (command === 'SENTINEL' && what === 'sentinels') return resp([]);
    if (command === 'SUBSCRIBE') {
      this.#subscribers.add(socket);
      return resp(['subscribe', args[0] ?? '', 1]);
    }
    if (command === 'PING') return '+PONG\r\n';
    return `-ERR unknown command '${name}'\r\n`;
  }
}

/** One whole RESP request at the head of `buffer` (an array of bulk strings), and its length. */
function parseCommand(buffer: string): { command: string[]; length: number } | undefined {
  const header = /^\*(\d+)\r\n/.exec(buffer);
  if (!header) return undefined;
  let at = header[0].length;
  const command: string[] = [];
  for (let n = 0; n < Number(header[1]); n++) {
    const size = /^\$(\d+)\r\n/.exec(buffer.slice(at));
    if (!size) return undefined;
    at += size[0].length;
    if (buffer.length < at + Number(size[1]) + 2) return undefined;
    command.push(buffer.slice(at, at + Number(size[1])));
    at += Number(size[1]) + 2;
  }
  return { command, length: at };
}

function resp(value: (string | number)[]): string {
  return `*${value.length}\r\n${value.map((item) => (typeof item === 'number' ? `:${item}\r\n` : `$${Buffer.byteLength(item)}\r\n${item}\r\n`)).join('')}`;
}
