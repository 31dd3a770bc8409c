// What the room uses of its limits, for the GM (the GM's /state `limits`, docs/table-api.md):
// 「プレイヤー 3/12 · 保存容量 0.4/32 MB」. Players never see it.
import { t } from './i18n.js';

const MB = 1024 * 1024;
/** Share of the quota past which the line is shown as a warning. */
const NEAR_FULL = 0.9;

const megabytes = (bytes) => {
  const mb = bytes / MB;
  return mb.toFixed(mb < 1 ? 2 : mb < 10 ? 1 : 0);
};

/** The usage line of `limits` (`null` limits: "3" without "/12"). */
export function usageText(limits) {
  const players = limits?.players ?? {};
  const storage = limits?.storage ?? {};
  const played = `${t('players')} ${players.used ?? 0}${players.max ? `/${players.max}` : ''}`;
  const used = megabytes(storage.used_bytes ?? 0);
  const stored = `${t('storage')} ${used}${storage.quota_bytes ? `/${megabytes(storage.quota_bytes)}` : ''} MB`;
  return `${played} · ${stored}`;
}

/** Is the room at (or near) one of its limits? */
export function nearLimit(limits) {
  const { players = {}, storage = {} } = limits ?? {};
  return Boolean(
    (players.max && players.used >= players.max)
      || (storage.quota_bytes && storage.used_bytes >= NEAR_FULL * storage.quota_bytes),
  );
}

/** Show `limits` in `element` (hidden without them: not the GM, or an older server). */
export function renderUsage(element, limits) {
  element.hidden = !limits;
  if (!limits) return;
  element.textContent = usageText(limits);
  element.title = t('usageHelp');
  element.classList.toggle('near', nearLimit(limits));
}
