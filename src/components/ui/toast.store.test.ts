import { cleanStores } from 'nanostores';
import { afterEach, expect, it } from 'vitest';
import { $toasts, dismissToast, showToast } from './toast.store.ts';

afterEach(() => {
  $toasts.set([]);
  cleanStores($toasts);
});

it('shows a toast with the default 3000 ms duration', () => {
  showToast('Готово', 'success');
  expect($toasts.get()).toEqual([{ id: expect.any(Number), message: 'Готово', type: 'success', duration: 3000 }]);
});

it('keeps at most five toasts, dropping the oldest', () => {
  for (let i = 1; i <= 7; i++) showToast(`t${i}`);
  expect($toasts.get().map((t) => t.message)).toEqual(['t3', 't4', 't5', 't6', 't7']);
});

it('dismisses one toast by id', () => {
  const a = showToast('a');
  showToast('b');
  dismissToast(a);
  expect($toasts.get().map((t) => t.message)).toEqual(['b']);
});
