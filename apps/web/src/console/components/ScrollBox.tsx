import type { ReactNode } from "react";

/**
 * A wide table that scrolls sideways on a phone: focusable and named, so a keyboard can scroll it too (axe-core's
 * scrollable-region-focusable).
 */
export function ScrollBox({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="scroll" tabIndex={0} role="region" aria-label={label}>
      {children}
    </div>
  );
}
