// A free TCP port for a torch.distributed rendezvous (docs/design.md §5b): the OS picks
// one for a listener on loopback, which is closed again; the master's TCPStore then binds it.
import { createServer } from 'node:net';

/** A loopback TCP port that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
