// Requests, live: a sheet in iOS's words for each pending request, shown the moment an app asks.
import { get, post } from './api.js';
import { element } from './dom.js';
import { notice } from './notice.js';
import { Grid } from './grid.js';
import { nameOf } from './names.js';
import { outline } from './outline.js';

const shown = new Map();   // request number → its sheet (null while the app's name is looked up)
let libraryCount = 0;

// `onAccessChange` runs when an app's access or selection changed elsewhere (photolibctl, an
// answer, a grant that ended): the Apps list then shows it without a reload.
export function followRequests(assets, onAccessChange = () => {}) {
  libraryCount = assets;
  const source = new EventSource('/api/events');
  // Read again once the stream is open (and after it reconnects): a request asked between the first
  // read and the stream's start would otherwise never show its sheet.
  source.onopen = () => refresh();
  source.onmessage = (message) => {
    const event = JSON.parse(message.data);
    if (event.event === 'request') {
      if (event.state === 'pending') show(event);
      else close(event.request);
    } else if (event.event === 'reload') {
      refresh();
      onAccessChange();
    } else if (event.event === 'requests') {
      refresh();  // the page server's feed began after this page read the requests: one may have come between
    } else if (event.event === 'authorization' || event.event === 'selection') {
      onAccessChange();
    }
  };
  refresh();
}

async function refresh() {
  try {
    // Only what was shown before asking may be closed for missing from the answer: a request that
    // arrived by its event while the list was on its way is newer than the list, not gone.
    const before = new Set(shown.keys());
    const { requests } = await get('/api/requests');
    const pending = new Set(requests.map((request) => request.request));
    for (const number of before) if (!pending.has(number)) close(number);
    for (const request of requests) show(request);
  } catch (error) {
    notice(error.message);
  }
}

function close(number) {
  if (!shown.has(number)) return;
  const sheet = shown.get(number);
  shown.delete(number);
  if (!sheet) return;
  sheet.close();
  sheet.remove();
}

async function answer(request, body, done) {
  try {
    await post(`/api/requests/${request.request}/answer`, body);
    notice(done);
    close(request.request);
  } catch (error) {
    notice(error.message);
  }
}

function sheetFor(request, title, ...content) {
  const heading = element('h2', { id: `sheet-${request.request}-title`, text: title });
  const sheet = element('dialog', { class: 'sheet', 'aria-labelledby': heading.id, 'data-request': String(request.request),
    'data-kind': request.kind }, heading, ...content);
  sheet.addEventListener('cancel', (event) => event.preventDefault());  // Escape is not an answer
  return sheet;
}

function purpose(request) {
  return element('p', { class: 'purpose', text: request.purpose || `${request.name} gave no reason.` });
}

function buttons(...items) {
  return element('div', { class: 'buttons' }, items);
}

function button(text, onclick, primary = false) {
  return element('button', { type: 'button', class: primary ? 'primary' : '', text, onclick });
}

export async function show(pending) {
  if (shown.has(pending.request)) return;
  shown.set(pending.request, null);
  // Sheets name the app as the person knows it; `app` stays its ID for the API.
  const request = { ...pending, name: await nameOf(pending.app) };
  if (!shown.has(request.request)) return;  // answered or withdrawn while the name was looked up
  let sheet;
  if (request.kind === 'pick') {
    sheet = pickSheet(request);
  } else if (request.kind === 'review') {
    sheet = sheetFor(request, `“${request.name}” asks you to review the photos it can see`, purpose(request),
      buttons(
        button('Select More Photos…', () => choose(request, sheet, 'Done', (ids) =>
          answer(request, { answer: 'limited', assets: ids }, `${request.name} can now see ${ids.length} more.`)), true),
        button('Keep Current Selection', () => answer(request, { answer: 'limited', assets: [] }, `${request.name} keeps its selection.`))));
  } else if (request.access === 'addOnly') {
    sheet = sheetFor(request, `“${request.name}” Would Like to Add to Your Photos`, purpose(request),
      buttons(
        button('Don\u2019t Allow', () => answer(request, { answer: 'denied' }, `${request.name} may not add photos.`)),
        button('Allow', () => answer(request, { answer: 'authorized' }, `${request.name} may add photos.`), true)));
  } else {
    sheet = sheetFor(request, `“${request.name}” Would Like to Access Your Photos`, purpose(request),
      buttons(
        button('Select Photos…', () => choose(request, sheet, 'Done', (ids) =>
          answer(request, { answer: 'limited', assets: ids }, `${request.name} can see ${ids.length} photos.`)), true),
        button(`Allow Full Access (all ${libraryCount.toLocaleString('en')} photos)`,
          () => answer(request, { answer: 'authorized' }, `${request.name} can see every photo.`)),
        button('Don\u2019t Allow', () => answer(request, { answer: 'denied' }, `${request.name} may not see your photos.`))));
  }
  shown.set(request.request, sheet);
  document.body.append(sheet);
  sheet.showModal();
}

// The grid inside a sheet; `confirm` gets the chosen IDs (in the order chosen).
async function choose(request, sheet, confirmWords, confirm, options = {}) {
  const grid = new Grid(options);
  const count = element('span', { class: 'count', 'aria-live': 'polite' });
  const done = button(confirmWords, () => confirm(grid.chosenInOrder()), true);
  const update = () => {
    const n = grid.chosenInOrder().length;
    count.textContent = options.limit ? `${n} of at most ${options.limit}` : `${n} chosen`;
    if (options.label) done.textContent = options.label(n);
  };
  grid.onChange = update;
  grid.onConfirm = () => done.click();
  const finding = outline(grid);
  sheet.replaceChildren(sheet.querySelector('h2'), purpose(request), ...(options.note ? [options.note] : []),
    ...(options.options ? [options.options] : []),
    element('div', { class: 'toolbar' }, count, done, button('Cancel', () =>
      answer(request, { answer: 'cancel' }, `${request.name}'s request was cancelled.`)), finding.bar),
    finding.cards,
    grid.element);
  update();
  try {
    await grid.load();
  } finally {
    finding.loadMonths();
  }
}

function pickSheet(request) {
  const pick = request.pick ?? { types: ['image', 'video', 'live'], limit: 1, ordered: false };
  const sheet = sheetFor(request, `“${request.name}” asks you to pick ${pick.limit === 1 ? 'a photo' : 'photos'}`);
  // What the app gets, in words: once, and with or without where the photos were taken and their captions.
  const note = element('p', { class: 'pick-note', text: `${request.name} gets what you add, once; nothing else is shared.` });
  // iOS 17's Options: what leaves with these photos, starting from the app's settings.
  const options = { location: false, captions: false };
  const panel = element('details', { class: 'pick-options' }, element('summary', { text: 'Options' }));
  pickSettings(request).then((app) => {
    options.location = app.location === 'precise';
    options.captions = app.captions === 'shared';
    const say = () => { note.textContent = pickNote(request, options); };
    const toggle = (key, words, allowed, why) => element('label', { class: 'option' },
      element('input', { type: 'checkbox', checked: options[key], disabled: !allowed, onchange: (event) => { options[key] = event.target.checked; say(); } }),
      element('span', { text: words }),
      allowed ? null : element('small', { text: why }));
    panel.append(
      toggle('location', 'Location', app.location === 'precise', ` (${request.name} may not have location)`),
      toggle('captions', 'Captions and people', true, ''),
      element('p', { class: 'note', text: 'Camera and lens serial numbers are always removed.' }));
    say();
  }, () => {});
  choose(request, sheet, 'Add (0)', (ids) => {
    if (ids.length === 0) return notice('Choose at least one photo, or Cancel.');
    return answer(request, { answer: 'pick', assets: ids, location: options.location, captions: options.captions },
      `${ids.length} handed to ${request.name}, once.`);
  }, { types: pick.types, limit: pick.limit, ordered: pick.ordered, accepts: pick.accepts ?? [], label: (n) => `Add (${n})`, note, options: panel });
  return sheet;
}

async function pickSettings(request) {
  const { apps } = await get('/api/apps');
  return apps.find((candidate) => candidate.app === request.app) ?? { location: 'none', captions: 'removed' };
}

function pickNote(request, options) {
  const where = options.location ? 'with where they were taken' : 'without where they were taken';
  const captions = options.captions ? ', with their captions and the people named in them' : '';
  return `${request.name} gets the photos you add, once, ${where}${captions}; nothing else is shared.`;
}

// Brings one request's sheet to the front (photolibctl ui --request N); a request no longer pending says so.
export async function focusRequest(number) {
  const { requests } = await get('/api/requests');
  const request = requests.find((candidate) => candidate.request === number);
  if (!request) return notice(`Request ${number} is no longer pending.`);
  const sheet = shown.get(number);
  if (sheet) { sheet.close(); sheet.showModal(); } else if (!shown.has(number)) show(request);
}
