// The order in which the embedded database serves its connections.
//
// PGlite is one PostgreSQL session. pglite-socket multiplexes many client connections
// onto it, one protocol message at a time, so without care another connection's Parse
// can land between this connection's Parse and Bind (the unnamed statement is session
// state) or inside its transaction. This queue keeps the session owned by one
// connection from its first extended-query message until its Sync, and for as long as
// it has a transaction open; other connections wait. Plain JavaScript: it runs on the
// database's worker thread, which has no TypeScript loader.

// Extended-query (and COPY-in) messages that continue a sequence closed by Sync.
const CONTINUES = new Set(['P', 'B', 'D', 'E', 'C', 'H', 'd'].map((c) => c.charCodeAt(0)));

export class SessionQueue {
  constructor(db) {
    this.db = db;
    this.queue = [];
    this.processing = false;
    /** The handler that owns the session now, or null when any may go next. */
    this.owner = null;
  }

  enqueue(handlerId, message, onData) {
    return new Promise((resolve, reject) => {
      this.queue.push({ handlerId, message, onData, resolve, reject });
      void this.process();
    });
  }

  async process() {
    if (this.processing) return;
    this.processing = true;
    try {
      while (this.queue.length > 0) {
        const index = this.owner === null ? 0 : this.queue.findIndex((q) => q.handlerId === this.owner);
        if (index === -1) break; // the owner has not sent its next message yet
        const [item] = this.queue.splice(index, 1);
        let bytes = 0;
        try {
          await this.db.runExclusive(() =>
            this.db.execProtocolRawStream(item.message, {
              onRawData: (data) => {
                bytes += data.length;
                item.onData(data);
              },
            }),
          );
        } catch (error) {
          this.owner = this.db.isInTransaction() ? item.handlerId : null;
          item.reject(error);
          continue;
        }
        this.owner = CONTINUES.has(item.message[0]) || this.db.isInTransaction() ? item.handlerId : null;
        item.resolve(bytes);
      }
    } finally {
      this.processing = false;
    }
  }

  getQueueLength() {
    return this.queue.length;
  }

  clearQueueForHandler(handlerId) {
    this.queue = this.queue.filter((q) => {
      if (q.handlerId !== handlerId) return true;
      q.reject(new Error('Handler disconnected'));
      return false;
    });
  }

  /** A connection that closes gives the session back, rolling back what it left open. */
  async clearTransactionIfNeeded(handlerId) {
    if (this.owner === handlerId) {
      this.owner = null;
      if (this.db.isInTransaction()) await this.db.exec('ROLLBACK');
    }
    await this.process();
  }
}
