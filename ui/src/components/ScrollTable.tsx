import type { ReactNode } from 'react';

/**
 * A wide table on a narrow screen: it scrolls sideways inside a region that takes keyboard focus
 * (arrow keys scroll it), so a person without a mouse reaches every column at 390 px.
 */
export function ScrollTable({ label, minWidth, children }: { label: string; minWidth: number; children: ReactNode }) {
  return (
    <div role="region" aria-label={label} tabIndex={0} style={{ overflowX: 'auto' }}>
      <div style={{ minWidth }}>{children}</div>
    </div>
  );
}
