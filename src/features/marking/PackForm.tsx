// The packing form's island (issue 39): the same form the page works with without scripts, and a scanner's
// Enter handled in place — a code whose structure is wrong is said under its field at once and selected
// for the next scan, a good one moves the cursor to the next empty unit, and the last one sends the form,
// where the server checks the size's GTIN and that the code was never sold. A unit's kept code can be
// taken off before the parcel leaves (a pair scanned by mistake): its button sends a form of its own.
import { useRef, useState, type KeyboardEvent } from 'react';
import { fill } from '~/lib/i18n/fill.ts';
import { CODE_MAX_CHARS, parseCode } from './marking.ts';

/** The form the units' "clear" buttons send: apart from the codes' form, whose Enter sends the codes. */
const CLEAR_FORM = 'ops-pack-clear';

export interface PackFormLine {
  lineId: number;
  title: string;
  variant: string;
  gtins: string[];
  units: { field: string; unit: number; value: string }[];
}

interface Props {
  m: Record<string, string>;
  csrf: string;
  lines: PackFormLine[];
  /** The first empty unit's field: focused when the page opens. */
  focus: string | undefined;
  disabled: boolean;
}

export function PackForm({ m, csrf, lines, focus, disabled }: Props) {
  const form = useRef<HTMLFormElement>(null);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const fields = lines.flatMap((l) => l.units.map((u) => u.field));

  const onKey = (event: KeyboardEvent<HTMLInputElement>, field: string) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    const input = event.currentTarget;
    const parsed = input.value.trim() === '' ? null : parseCode(input.value);
    if (parsed && !parsed.ok) {
      setProblems((p) => ({ ...p, [field]: m[`marking.scan.${parsed.problem}`] ?? m['marking.scan.format'] ?? '' }));
      input.select();
      return;
    }
    setProblems((p) => ({ ...p, [field]: '' }));
    const inputs = fields.map((f) => form.current?.elements.namedItem(f)).filter((e): e is HTMLInputElement => e instanceof HTMLInputElement);
    const next = inputs.slice(inputs.indexOf(input) + 1).find((e) => e.value.trim() === '') ?? inputs.find((e) => e.value.trim() === '');
    if (next) next.focus();
    else form.current?.requestSubmit();
  };

  return (
    <>
      <form ref={form} method="post" className="mt-4 flex flex-col gap-4" autoComplete="off" data-testid="ops-pack-form">
        <input type="hidden" name="_csrf" value={csrf} />
        {lines.map((line) => (
          <section key={line.lineId} className="border border-line bg-paper p-4">
            <h2 className="font-600">
              {line.title}
              {line.variant && <span className="font-400"> · {line.variant}</span>}
            </h2>
            <p className="text-xs text-ink-soft">
              {line.gtins.length > 0 ? fill(m['ops.pack.gtins'] ?? '', { gtins: line.gtins.join(', ') }) : m['ops.pack.noGtins']}
            </p>
            <div className="mt-2 grid gap-3">
              {line.units.map((unit) => {
                const problem = problems[unit.field];
                const hint = `${unit.field}-problem`;
                return (
                  <div key={unit.field} className="flex items-end gap-2">
                    <label className="block min-w-0 flex-1 text-sm">
                      <span className="font-600">{fill(m['ops.pack.unit'] ?? '', { unit: unit.unit })}</span>
                      <input
                        className="mt-1 block w-full border border-line bg-paper px-2 py-2 font-mono text-sm aria-[invalid=true]:border-accent"
                        name={unit.field}
                        defaultValue={unit.value}
                        maxLength={CODE_MAX_CHARS}
                        spellCheck={false}
                        autoCapitalize="off"
                        inputMode="text"
                        disabled={disabled}
                        autoFocus={unit.field === focus && !disabled}
                        aria-invalid={problem ? true : undefined}
                        aria-describedby={problem ? hint : undefined}
                        onKeyDown={(event) => onKey(event, unit.field)}
                        data-testid={`ops-pack-${unit.field}`}
                      />
                      {problem && (
                        <span id={hint} role="alert" className="mt-1 block text-xs text-accent" data-testid={`ops-pack-problem-${unit.field}`}>
                          {problem}
                        </span>
                      )}
                    </label>
                    {unit.value && !disabled && (
                      // Its own small form (below), so that a scanner's Enter in a field never presses it.
                      <button
                        type="submit"
                        form={CLEAR_FORM}
                        name="clear"
                        value={unit.field}
                        className="shrink-0 border border-line bg-paper px-2 py-2 text-xs"
                        aria-label={fill(m['ops.pack.clearUnit'] ?? '', { unit: unit.unit, item: line.title })}
                        data-testid={`ops-pack-clear-${unit.field}`}
                      >
                        {m['ops.pack.clear']}
                      </button>
                    )}
                  </div>
                );
              })}
            </div>
          </section>
        ))}
        {!disabled && (
          <button type="submit" className="self-start bg-ink px-3 py-2 text-sm font-600 text-white">
            {m['ops.pack.save']}
          </button>
        )}
      </form>
      <form id={CLEAR_FORM} method="post" hidden>
        <input type="hidden" name="_csrf" value={csrf} />
      </form>
    </>
  );
}
