// One line of a money summary (the cart's and the checkout's): a label and an amount in tabular figures.
import type { ReactNode } from 'react';

export function SummaryRow({ label, value, tone = '', testId }: { label: ReactNode; value: ReactNode; tone?: string; testId?: string }) {
  return (
    <div className={`flex justify-between ${tone}`}>
      <dt>{label}</dt>
      <dd className="tabular-nums" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}
