import http from 'node:http';
import { type LiveEvent, liveEventSchema } from '../../src/kyc/contract/live-events.ts';
import { type PresenceViewer, presenceSnapshotSchema, streamHelloSchema } from '../../src/kyc/contract/presence.ts';

/** One message of a Server-Sent Events stream as a browser's EventSource reads it. */
export interface StreamMessage {
  id?: string;
  event?: string;
  data?: string;
  /** Comment lines (`: heartbeat`) of this block. */
  comments: string[];
}

/**
 * A client of `GET /api/events` for tests: it reads the stream as it comes, parses each block, and lets
 * a test wait for what it expects (never for a time). Sends no app header unless given one, as EventSource.
 */
export interface TestStream {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body of a refusal (JSON), read in full. */
  body: string;
  messages: StreamMessage[];
  /** The `kyc` events received so far, with their ids. */
  events(): { id: string; event: LiveEvent }[];
  /** The stream's id, from its hello event (presence announcements name it). */
  streamId(): string | undefined;
  /** The last presence snapshot received: who else has which candidate open (undefined: none received yet). */
  viewers(): PresenceViewer[] | undefined;
  /** Resolves once `test` holds of the messages received (checked on each new one). */
  until(test: (messages: StreamMessage[]) => boolean): Promise<void>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  /** Stops reading, as a stalled browser or link: what the server sends piles up in its socket. */
  pause(): void;
  resume(): void;
  close(): void;
}

/** `headers` given as undefined are not sent (the default Sec-Fetch-Site: same-origin of a browser's own page). */
export function openStream(port: number, headers: Record<string, string | undefined> = {}, path = '/api/events'): Promise<TestStream> {
  const sent = Object.fromEntries(
    Object.entries({ 'sec-fetch-site': 'same-origin', accept: 'text/event-stream', ...headers }).filter(
      (entry): entry is [string, string] => entry[1] !== undefined,
    ),
  );
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path, agent: false, headers: sent }, (res) => {
      const messages: StreamMessage[] = [];
      const waiters = new Set<() => void>();
      let pending = '';
      let body = '';
      // The connection's end too: a paused response says nothing of it until it is read.
      const ended = new Promise<void>((done) => {
        res.on('close', () => done());
        req.on('close', () => done());
      });
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (res.statusCode !== 200) {
          body += chunk;
          return;
        }
        pending += chunk;
        let end = pending.indexOf('\n\n');
        while (end >= 0) {
          messages.push(parseBlock(pending.slice(0, end)));
          pending = pending.slice(end + 2);
          end = pending.indexOf('\n\n');
        }
        for (const waiter of [...waiters]) waiter();
      });
      const stream: TestStream = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        get body() {
          return body;
        },
        messages,
        events: () =>
          messages
            .filter((m) => m.event === 'kyc')
            .map((m) => ({ id: m.id ?? '', event: liveEventSchema.parse(JSON.parse(m.data ?? '')) })),
        streamId: () => {
          const hello = messages.find((m) => m.event === 'hello');
          return hello ? streamHelloSchema.parse(JSON.parse(hello.data ?? '')).stream : undefined;
        },
        viewers: () => {
          const last = messages.findLast((m) => m.event === 'presence');
          return last ? presenceSnapshotSchema.parse(JSON.parse(last.data ?? '')).viewers : undefined;
        },
        until: (test) =>
          new Promise<void>((done, fail) => {
            const check = () => {
              if (!test(messages)) return;
              waiters.delete(check);
              done();
            };
            waiters.add(check);
            void ended.then(() => {
              if (waiters.delete(check)) fail(new Error(`the stream ended first, after ${messages.length} messages`));
            });
            check();
          }),
        ended,
        pause: () => res.pause(),
        resume: () => res.resume(),
        close: () => req.destroy(),
      };
      if (res.statusCode === 200) resolve(stream);
      else void ended.then(() => resolve(stream));
    });
    req.on('error', reject);
  });
}

function parseBlock(block: string): StreamMessage {
  const message: StreamMessage = { comments: [] };
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) message.comments.push(line.slice(1).trim());
    else {
      const colon = line.indexOf(':');
      const field = line.slice(0, colon);
      const value = line.slice(colon + 1).replace(/^ /, '');
      if (field === 'id' || field === 'event' || field === 'data') message[field] = value;
    }
  }
  return message;
}

/** A delivery as the webhook receiver would publish it, in `environment`. */
export function liveEvent(environment: string, refId: string, status = 'approved'): LiveEvent {
  return { environment, event: 'review.approved', refId, recordId: null, status, isArchived: false, at: new Date().toISOString() };
}
