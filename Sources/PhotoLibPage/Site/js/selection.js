// Edit Selected Photos: the library as a grid, newest first, the app's selection checked;
// whole albums (live: photos added later join), rules by when photos were taken, and how long.
import { get, post } from './api.js';
import { element, labelled } from './dom.js';
import { notice } from './notice.js';
import { Grid } from './grid.js';
import { nameOf } from './names.js';
import { outline } from './outline.js';

const typeChoices = [['', 'All'], ['image', 'Photos'], ['video', 'Videos'], ['live', 'Live Photos']];

export async function showSelection(main, app) {
  const path = `/api/apps/${encodeURIComponent(app)}`;
  const [selection, { albums }, first, name] = await Promise.all([get(`${path}/selection`), get('/api/albums'), Grid.firstPage(), nameOf(app)]);
  const initial = new Set(selection.assets);
  const initialAlbums = new Set(selection.albums);
  const grid = new Grid({ checked: initial });

  const type = element('select', { 'aria-label': 'Show', onchange: () => refilter() },
    typeChoices.map(([value, words]) => element('option', { value, text: words })));
  const search = element('input', { type: 'search', placeholder: 'Name, album, place or date', 'aria-label': 'Search', onchange: () => refilter() });
  const refilter = () => grid.filter({ ...grid.query, type: type.value, search: search.value });
  const finding = outline(grid);

  const until = element('input', { type: 'datetime-local', 'aria-label': 'Until', hidden: true });
  const duration = element('select', { 'aria-label': 'For how long', onchange: () => { until.hidden = duration.value !== 'until'; } },
    [['', 'Until I change it'], ['3600', '1 hour'], ['86400', '1 day'], ['until', 'Until a date…']]
      .map(([value, words]) => element('option', { value, text: words })));

  const albumBoxes = albums.map((album) => element('input', { type: 'checkbox', value: album, checked: initialAlbums.has(album),
    'aria-label': `The whole album ${album}` }));
  const albumList = element('details', { class: 'albums' },
    element('summary', { text: `Whole albums (${initialAlbums.size} shared; photos added later join)` }),
    element('ul', {}, albumBoxes.map((box) => element('li', {}, element('label', { class: 'field' }, box, box.value)))));

  const save = element('button', { class: 'primary', type: 'button', text: 'Save', onclick: async () => {
    const now = grid.checkedIDs();
    const albumsNow = new Set(albumBoxes.filter((box) => box.checked).map((box) => box.value));
    const body = {
      select: [...now].filter((id) => !initial.has(id)),
      deselect: [...initial].filter((id) => !now.has(id)),
      selectAlbums: [...albumsNow].filter((album) => !initialAlbums.has(album)),
      deselectAlbums: [...initialAlbums].filter((album) => !albumsNow.has(album)),
    };
    if (duration.value === 'until') {
      if (!until.value) return notice('Choose the date the grant ends.');
      body.until = Math.floor(new Date(until.value).getTime() / 1000);
    } else if (duration.value) {
      body.forSeconds = Number(duration.value);
    }
    try {
      const answer = await post(`${path}/selection`, body);
      notice(`Saved: ${answer.added} added, ${answer.removed} removed for ${name}.`);
      location.hash = '#apps';
    } catch (error) {
      notice(error.message);
    }
  } });
  grid.onConfirm = () => save.click();

  main.replaceChildren(
    element('h2', { text: `Edit Selected Photos — ${name}` }),
    element('div', { class: 'toolbar' }, labelled('Show', type), search, labelled('For', duration), until, save,
      element('a', { href: '#apps', text: 'Cancel' })),
    albumList,
    rules(app, path, selection.rules),
    element('div', { class: 'toolbar secondary' }, finding.bar),
    finding.cards,
    grid.element,
  );
  try {
    await grid.load(first);
  } finally {
    finding.loadMonths();
  }
}

// Rule grants: every photo taken in a span (of one type), live as the library changes.
function rules(app, path, existing) {
  const from = element('input', { type: 'date', 'aria-label': 'Taken from' });
  const to = element('input', { type: 'date', 'aria-label': 'Taken until' });
  const kind = element('select', { 'aria-label': 'Of type' }, typeChoices.map(([value, words]) => element('option', { value, text: words })));
  const list = element('ul', {}, existing.map((rule) => element('li', { 'data-rule': String(rule.rule) },
    `Every ${rule.type ?? 'photo or video'} taken from ${new Date(rule.takenFrom * 1000).toLocaleDateString('en')} `
      + `to ${new Date((rule.takenTo - 1) * 1000).toLocaleDateString('en')} `,
    element('button', { type: 'button', text: 'Remove', 'aria-label': `Remove rule ${rule.rule}`, onclick: async () => {
      await act(`${path}/rules/remove`, { rules: [rule.rule] }, `Rule removed for ${app}.`);
    } }))));
  const add = element('button', { type: 'button', text: 'Add rule', onclick: async () => {
    if (!from.value || !to.value) return notice('Choose both dates of the rule.');
    const takenFrom = Math.floor(new Date(`${from.value}T00:00`).getTime() / 1000);
    const takenTo = Math.floor(new Date(`${to.value}T00:00`).getTime() / 1000) + 86400;  // the last day is included
    const body = { takenFrom, takenTo };
    if (kind.value) body.type = kind.value;
    await act(`${path}/rules`, body, `${app} now sees what was taken in that span, as the library changes.`);
  } });
  return element('details', { class: 'rules' },
    element('summary', { text: `Rules by when photos were taken (${existing.length})` }),
    list,
    element('div', { class: 'toolbar' }, labelled('From', from), labelled('To', to), labelled('Type', kind), add));
}

async function act(path, body, done) {
  try {
    await post(path, body);
    notice(done);
    window.dispatchEvent(new HashChangeEvent('hashchange'));   // show the editor again, fresh
  } catch (error) {
    notice(error.message);
  }
}
