import type { Dispatcher } from 'undici';

/**
 * One HTTP request and its whole answer, through undici's dispatch API with a small
 * handler. `request()` wraps every exchange in an async-hooks resource and a Readable
 * stream for the body; for webhook answers (a few bytes, read whole) that machinery
 * was a third of the client's CPU per request in the webhook benchmark. What a plain
 * dispatch does not do is what a webhook must not do anyway: it follows no redirects
 * and retries nothing. The dispatcher (the SSRF-guarded agent) still opens and checks
 * every connection; headersTimeout and bodyTimeout bound the wait as with request().
 */
export interface ExchangeRequest {
  url: URL;
  method: 'POST' | 'PUT';
  headers: Record<string, string>;
  body: string | null;
  timeoutMs: number;
  /** Answers longer than this are cut here and the connection is dropped. */
  maxRead: number;
  dispatcher: Dispatcher;
}

export interface ExchangeAnswer {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

type Controller = Dispatcher.DispatchController;

class Exchange implements Dispatcher.DispatchHandler {
  private statusCode = 0;
  private headers: ExchangeAnswer['headers'] = {};
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private settled = false;

  constructor(
    private readonly maxRead: number,
    private readonly resolve: (answer: ExchangeAnswer) => void,
    private readonly reject: (error: Error) => void,
  ) {}

  onRequestStart(): void {}

  onResponseStart(_controller: Controller, statusCode: number, headers: Record<string, string | string[]>): void {
    // 1xx informational answers come before the real one.
    if (statusCode < 200) return;
    this.statusCode = statusCode;
    this.headers = headers;
  }

  onResponseData(controller: Controller, chunk: Buffer): void {
    if (this.settled || this.statusCode === 0) return;
    this.chunks.push(chunk);
    this.size += chunk.length;
    if (this.size >= this.maxRead) {
      this.finish();
      controller.abort(new Error('answer longer than the limit; the rest was not read'));
    }
  }

  onResponseEnd(): void {
    this.finish();
  }

  onResponseError(_controller: Controller, error: Error): void {
    if (this.settled) return;
    this.settled = true;
    this.reject(error);
  }

  private finish(): void {
    if (this.settled) return;
    this.settled = true;
    const { chunks } = this;
    const text = chunks.length === 0 ? '' : chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks, this.size).toString('utf8');
    this.resolve({ statusCode: this.statusCode, headers: this.headers, text });
  }
}

/** Sends one request and resolves with the answer; rejects with undici's (or the SSRF guard's) error. */
export function exchange(req: ExchangeRequest): Promise<ExchangeAnswer> {
  return new Promise<ExchangeAnswer>((resolve, reject) => {
    const handler = new Exchange(req.maxRead, resolve, reject);
    try {
      req.dispatcher.dispatch(
        {
          origin: req.url.origin,
          path: req.url.pathname + req.url.search,
          method: req.method,
          headers: req.headers,
          body: req.body,
          headersTimeout: req.timeoutMs,
          bodyTimeout: req.timeoutMs,
        },
        handler,
      );
    } catch (error) {
      handler.onResponseError(null as unknown as Controller, error as Error);
    }
  });
}
