/**
 * The console's pages (console.ts) as HTML text: server-rendered, no script, one style sheet
 * inline whose hash the Content-Security-Policy names. Every value from outside is escaped.
 */
import type { OutboxMessage } from '../store/types.js';
import type { JournalEntry } from './entry.js';
import type { JournalView } from './journal.js';
import { valueText, type ConsoleText } from './console-text.js';

/** The console's one style sheet (its SHA-256 is in the Content-Security-Policy). */
export const CONSOLE_CSS = `
:root { color-scheme: light dark; --fg: #1b1b1f; --bg: #fff; --muted: #4a4a55; --line: #d5d5de; --accent: #0b57d0; --bad: #a4161a; --good: #146c2e; }
@media (prefers-color-scheme: dark) { :root { --fg: #ececf1; --bg: #16161a; --muted: #b9b9c6; --line: #3a3a44; --accent: #9cc0ff; --bad: #ffb3ae; --good: #8fd9a1; } }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.45 system-ui, sans-serif; color: var(--fg); background: var(--bg); }
header, main { max-width: 56rem; margin: 0 auto; padding: 0.75rem 1rem; }
header { display: flex; flex-wrap: wrap; gap: 0.5rem 1rem; align-items: center; justify-content: space-between; border-bottom: 1px solid var(--line); }
header a { color: var(--fg); font-weight: 600; text-decoration: none; }
nav { display: flex; gap: 0.75rem; align-items: center; }
nav a { color: var(--accent); font-weight: 400; text-decoration: underline; }
h1 { font-size: 1.35rem; margin: 0.5rem 0; overflow-wrap: anywhere; }
h2 { font-size: 1.1rem; margin: 1.25rem 0 0.5rem; }
form { margin: 0; }
.search { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: end; }
.search label, .login label { display: block; font-weight: 600; }
input[type=search], input[type=password] { font: inherit; padding: 0.45rem 0.6rem; border: 1px solid var(--muted); border-radius: 6px; width: 100%; max-width: 28rem; color: var(--fg); background: var(--bg); }
.field { flex: 1 1 14rem; }
button { font: inherit; padding: 0.45rem 0.9rem; border-radius: 6px; border: 1px solid var(--accent); background: var(--accent); color: var(--bg); cursor: pointer; }
button.quiet { background: transparent; color: var(--accent); }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.hint { color: var(--muted); font-size: 0.9rem; margin: 0.25rem 0 0; }
.message { padding: 0.6rem 0.8rem; border-radius: 6px; border: 1px solid var(--line); margin: 0.75rem 0; }
.message.bad { border-color: var(--bad); color: var(--bad); }
.summary { display: grid; grid-template-columns: max-content 1fr; gap: 0.15rem 0.75rem; margin: 0.5rem 0; }
.summary dt, .details dt { color: var(--muted); }
.summary dd, .details dd { margin: 0; overflow-wrap: anywhere; }
ol.timeline, ul.list { list-style: none; padding: 0; margin: 0; }
ol.timeline li, ul.list li { border-top: 1px solid var(--line); padding: 0.6rem 0; }
.entry-head { display: flex; flex-wrap: wrap; gap: 0.25rem 0.75rem; align-items: baseline; }
.entry-head time { color: var(--muted); font-size: 0.9rem; font-variant-numeric: tabular-nums; }
.details { display: grid; grid-template-columns: max-content 1fr; gap: 0.1rem 0.75rem; margin: 0.35rem 0 0; font-size: 0.95rem; }
.bad { color: var(--bad); }
.good { color: var(--good); }
.actions { display: flex; flex-wrap: wrap; gap: 0.5rem; margin: 0.5rem 0; }
code { font-size: 0.9em; overflow-wrap: anywhere; }
`;

export const escapeHtml = (value: string): string =>
  value.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);

/** Where the console is and in which language: builds its links. */
export interface PageContext {
  text: ConsoleText;
  path: string;
  signedIn: boolean;
}

export const link = (context: PageContext, to: string, query: Record<string, string> = {}): string => {
  const params = new URLSearchParams({ ...query, lang: context.text.lang });
  return `${context.path}${to}?${params.toString()}`;
};

export const page = (context: PageContext, title: string, body: string): string => {
  const { text } = context;
  const other = text.lang === 'en' ? { lang: 'ru', name: 'Русский' } : { lang: 'en', name: 'English' };
  const signOut = context.signedIn
    ? `<form method="post" action="${escapeHtml(link(context, '/logout'))}"><button class="quiet" type="submit">${escapeHtml(text.signOut)}</button></form>`
    : '';
  return `<!doctype html>
<html lang="${text.lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer"><title>${escapeHtml(title)} · ${escapeHtml(text.title)}</title><style>${CONSOLE_CSS}</style></head>
<body><header><a href="${escapeHtml(link(context, ''))}">${escapeHtml(text.title)}</a><nav><a href="?lang=${other.lang}" hreflang="${other.lang}" lang="${other.lang}">${other.name}</a>${signOut}</nav></header>
<main>${body}</main></body></html>`;
};

export const message = (content: string, bad = false): string =>
  `<p class="message${bad ? ' bad' : ''}" role="${bad ? 'alert' : 'status'}">${escapeHtml(content)}</p>`;

export const loginPage = (context: PageContext, problem: string | undefined): string =>
  page(
    context,
    context.text.signIn,
    `<h1>${escapeHtml(context.text.title)}</h1>${problem ? message(problem, true) : ''}
<form class="login" method="post" action="${escapeHtml(link(context, '/login'))}"><label for="key">${escapeHtml(context.text.keyLabel)}</label>
<p><input id="key" name="key" type="password" autocomplete="current-password" required></p><button type="submit">${escapeHtml(context.text.signIn)}</button></form>`,
  );

export const searchForm = (context: PageContext, query = ''): string =>
  `<form class="search" method="get" action="${escapeHtml(context.path)}" role="search"><input type="hidden" name="lang" value="${context.text.lang}">
<div class="field"><label for="q">${escapeHtml(context.text.searchLabel)}</label><input id="q" name="q" type="search" value="${escapeHtml(query)}" maxlength="200" aria-describedby="q-hint" required>
<p class="hint" id="q-hint">${escapeHtml(context.text.searchHint)}</p></div><button type="submit">${escapeHtml(context.text.search)}</button></form>`;

const time = (context: PageContext, iso: string): string => {
  const shown = new Intl.DateTimeFormat(context.text.lang === 'ru' ? 'ru-RU' : 'en-GB', {
    dateStyle: 'short',
    timeStyle: 'medium',
    timeZone: 'UTC',
  }).format(new Date(iso));
  return `<time datetime="${escapeHtml(iso)}">${escapeHtml(shown)} UTC</time>`;
};

const BAD_VALUES = new Set(['wrong', 'refused', 'unconfirmed', 'failed', 'retry', 'not_checked']);
const GOOD_VALUES = new Set(['verified', 'delivered', 'ok']);

const detailsOf = (context: PageContext, entry: JournalEntry): string => {
  const rows = Object.entries(entry.details)
    .filter(([, value]) => value !== null && value !== '')
    .map(([name, value]) => {
      const shown = valueText(context.text, value);
      const tone =
        typeof value === 'string' && BAD_VALUES.has(value) ? ' class="bad"' : GOOD_VALUES.has(String(value)) ? ' class="good"' : '';
      const label = Object.hasOwn(context.text.fields, name) ? context.text.fields[name]! : name;
      return `<dt>${escapeHtml(label)}</dt><dd${tone}>${name === 'change' ? `<code>${escapeHtml(shown)}</code>` : escapeHtml(shown)}</dd>`;
    });
  if (entry.truncated) rows.push(`<dt>…</dt><dd>${escapeHtml(context.text.truncated)}</dd>`);
  return rows.length > 0 ? `<dl class="details">${rows.join('')}</dl>` : '';
};

const redeliverForm = (context: PageContext, changeId: string, invoiceId: string): string =>
  `<form method="post" action="${escapeHtml(link(context, `/webhooks/${encodeURIComponent(changeId)}/redeliver`, { invoice: invoiceId }))}"><button class="quiet" type="submit">${escapeHtml(context.text.deliverAgain)}<span class="hint"> <code>${escapeHtml(changeId.slice(-8))}</code></span></button></form>`;

/** The status an invoice was last known in: the newest entry that states one. */
const lastStatus = (view: JournalView): string | undefined => {
  const entry = view.entries.find((one) => typeof one.details.status === 'string');
  return entry ? String(entry.details.status) : undefined;
};

/** An invoice's page: where it stands, the actions, and its timeline newest first. */
export const invoicePage = (
  context: PageContext,
  view: JournalView,
  options: { webhooks: boolean; notice?: string | undefined },
): string => {
  const { text } = context;
  const orderId = view.entries.map((entry) => entry.details.orderId).find((value) => typeof value === 'string');
  /** The newest webhook outcome of each change: a change already delivered is not offered again. */
  const delivered = new Set<string>();
  const seen = new Set<string>();
  for (const entry of view.entries) {
    const change = entry.details.change;
    if (entry.kind !== 'webhook' || typeof change !== 'string' || seen.has(change)) continue;
    seen.add(change);
    if (entry.details.outcome === 'delivered') delivered.add(change);
  }
  const offered = new Set<string>();
  const items = view.entries.map((entry) => {
    const change = entry.details.change;
    const offer =
      options.webhooks && entry.kind === 'change' && typeof change === 'string' && !delivered.has(change) && !offered.has(change);
    if (offer) offered.add(change);
    return `<li data-kind="${entry.kind}" data-seq="${entry.seq}"><div class="entry-head">${time(context, entry.at)}<strong>${escapeHtml(text.kinds[entry.kind])}</strong></div>${detailsOf(context, entry)}${offer ? redeliverForm(context, change, view.invoiceId) : ''}</li>`;
  });
  const status = lastStatus(view);
  return page(
    context,
    `${text.invoice} ${view.invoiceId}`,
    `${searchForm(context)}${options.notice ? message(options.notice) : ''}
<h1>${escapeHtml(text.invoice)} <code>${escapeHtml(view.invoiceId)}</code></h1>
<dl class="summary"><dt>${escapeHtml(text.status)}</dt><dd data-status>${escapeHtml(status ?? text.unknown)}</dd>${orderId ? `<dt>${escapeHtml(text.order)}</dt><dd>${escapeHtml(String(orderId))}</dd>` : ''}</dl>
<div class="actions"><form method="post" action="${escapeHtml(link(context, `/invoices/${view.invoiceId}/read`))}"><button type="submit">${escapeHtml(text.readNow)}</button></form></div>
<h2>${escapeHtml(text.timeline)}</h2>${view.dropped > 0 ? `<p class="hint">${escapeHtml(text.dropped(view.dropped))}</p>` : ''}
<ol class="timeline">${items.join('')}</ol>`,
  );
};

/** The home page: search, webhooks failed and pending, invoices open past their deadline. */
export const homePage = (
  context: PageContext,
  lists: {
    failed: OutboxMessage[] | undefined;
    pending: OutboxMessage[] | undefined;
    overdue: { invoiceId: string; deadline: string }[];
    enabled: boolean;
  },
  notice?: { text: string; bad: boolean; query?: string },
): string => {
  const { text } = context;
  const invoiceOf = (message: OutboxMessage) => message.id.split(':')[0] ?? '';
  const webhookList = (messages: OutboxMessage[] | undefined) =>
    messages === undefined || messages.length === 0
      ? `<p>${escapeHtml(text.none)}</p>`
      : `<ul class="list">${messages
          .map(
            (one) =>
              `<li><a href="${escapeHtml(link(context, `/invoices/${invoiceOf(one)}`))}"><code>${escapeHtml(one.id)}</code></a><dl class="details"><dt>${escapeHtml(text.attempts)}</dt><dd>${one.attempts}</dd>${one.lastError ? `<dt>${escapeHtml(text.lastError)}</dt><dd class="bad">${escapeHtml(one.lastError)}</dd>` : ''}</dl>${redeliverForm(context, one.id, invoiceOf(one))}</li>`,
          )
          .join('')}</ul>`;
  const overdue =
    lists.overdue.length === 0
      ? `<p>${escapeHtml(text.none)}</p>`
      : `<ul class="list">${lists.overdue
          .map(
            (one) =>
              `<li><a href="${escapeHtml(link(context, `/invoices/${one.invoiceId}`))}"><code>${escapeHtml(one.invoiceId)}</code></a> · ${escapeHtml(text.deadline)} ${time(context, one.deadline)}</li>`,
          )
          .join('')}</ul>`;
  return page(
    context,
    text.home,
    `<h1>${escapeHtml(text.title)}</h1>${searchForm(context, notice?.query)}${notice ? message(notice.text, notice.bad) : ''}${lists.enabled ? '' : message(text.noJournal, true)}
${lists.failed === undefined ? '' : `<h2>${escapeHtml(text.failedWebhooks)}</h2>${webhookList(lists.failed)}<h2>${escapeHtml(text.pendingWebhooks)}</h2>${webhookList(lists.pending)}`}
<h2>${escapeHtml(text.overdue)}</h2>${overdue}`,
  );
};

/** The invoices of one order id. */
export const orderPage = (context: PageContext, orderId: string, invoiceIds: readonly string[]): string =>
  page(
    context,
    `${context.text.order} ${orderId}`,
    `${searchForm(context, orderId)}<h1>${escapeHtml(context.text.order)} <code>${escapeHtml(orderId)}</code></h1><h2>${escapeHtml(context.text.ordersInvoices)}</h2>
<ul class="list">${invoiceIds.map((id) => `<li><a href="${escapeHtml(link(context, `/invoices/${id}`))}"><code>${escapeHtml(id)}</code></a></li>`).join('')}</ul>`,
  );
