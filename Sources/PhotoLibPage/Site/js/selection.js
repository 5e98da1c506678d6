// Edit Selected Photos: the library as a grid, newest first, the app's selection checked.
import { get, post } from './api.js';
import { element, labelled } from './dom.js';
import { notice } from './notice.js';
import { Grid } from './grid.js';

export async function showSelection(main, app) {
  const selection = await get(`/api/apps/${encodeURIComponent(app)}/selection`);
  const initial = new Set(selection.assets);
  const grid = new Grid({ checked: initial });
  const type = element('select', { 'aria-label': 'Show', onchange: () => grid.filter({ type: type.value, search: search.value }) },
    [['', 'All'], ['image', 'Photos'], ['video', 'Videos'], ['live', 'Live Photos']].map(([value, words]) => element('option', { value, text: words })));
  const search = element('input', { type: 'search', placeholder: 'Name, album or date', 'aria-label': 'Search',
    onchange: () => grid.filter({ type: type.value, search: search.value }) });
  const duration = element('select', { 'aria-label': 'For how long' },
    [['', 'Until I change it'], ['3600', '1 hour'], ['86400', '1 day']].map(([value, words]) => element('option', { value, text: words })));
  const save = element('button', { class: 'primary', type: 'button', text: 'Save', onclick: async () => {
    const now = grid.checkedIDs();
    const select = [...now].filter((id) => !initial.has(id));
    const deselect = [...initial].filter((id) => !now.has(id));
    try {
      const body = { select, deselect };
      if (duration.value) body.forSeconds = Number(duration.value);
      const answer = await post(`/api/apps/${encodeURIComponent(app)}/selection`, body);
      notice(`Saved: ${answer.added} added, ${answer.removed} removed for ${app}.`);
      location.hash = '#apps';
    } catch (error) {
      notice(error.message);
    }
  } });
  grid.onConfirm = () => save.click();
  main.replaceChildren(...[
    element('h2', { text: `Edit Selected Photos — ${app}` }),
    selection.albums.length ? element('p', { class: 'note', text: `Whole albums shared: ${selection.albums.join(', ')}` }) : null,
    element('div', { class: 'toolbar' }, labelled('Show', type), search, labelled('For', duration), save,
      element('a', { href: '#apps', text: 'Cancel' })),
    grid.element,
  ].filter(Boolean));
  await grid.load();
}
