import type { Config } from './config.ts';

/**
 * The one line a person can act on for a failure at start-up (the database cannot be reached,
 * the port is taken), or null for a failure that is a bug and keeps its stack trace.
 */
export function startupProblem(error: unknown, config: Config | null): string | null {
  const e = error as { code?: string; message?: string; address?: string; port?: number; hostname?: string };
  const where = describeDatabase(config);
  switch (e.code) {
    case 'EADDRINUSE':
      return `Port ${e.port ?? config?.PORT} on ${e.address ?? config?.HOST} is already in use: stop the program using it, or set PORT to a free port`;
    case 'EACCES':
      if (e.port !== undefined) return `Not allowed to listen on port ${e.port}: ports below 1024 need privileges; set PORT to 1024 or above`;
      return null;
    case 'EADDRNOTAVAIL':
      return `HOST=${config?.HOST} is not an address of this machine; use 127.0.0.1, 0.0.0.0 or one of its addresses`;
    case 'ECONNREFUSED':
      return `Cannot reach the database ${where}: nothing accepts connections there. Start PostgreSQL, or fix DATABASE_URL (unset it to use the embedded database)`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `Cannot reach the database ${where}: the host ${e.hostname ?? ''} is unknown. Fix the host in DATABASE_URL`;
    case 'ETIMEDOUT':
      return `Cannot reach the database ${where}: the connection timed out. Check the host, port and firewall`;
    case '3D000': {
      const name = databaseName(config);
      return `The database ${where} does not exist: create it (createdb ${name}, or CREATE DATABASE "${name}";) and start again`;
    }
    case '28P01':
    case '28000':
      return `The database ${where} refused the login: ${e.message}. Fix the user and password in DATABASE_URL`;
    default:
      return null;
  }
}

function describeDatabase(config: Config | null): string {
  if (!config?.DATABASE_URL) return 'in DATA_DIR';
  try {
    const url = new URL(config.DATABASE_URL);
    return `${url.hostname}:${url.port || 5432}${url.pathname}`;
  } catch {
    return 'of DATABASE_URL';
  }
}

function databaseName(config: Config | null): string {
  try {
    return decodeURIComponent(new URL(config?.DATABASE_URL ?? '').pathname.slice(1)) || 'postgres';
  } catch {
    return 'postgres';
  }
}
