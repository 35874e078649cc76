/**
 * The benchmark's baseline: what any viewer must do with the same response, and nothing more.
 * Fetch it, JSON.parse it, put its base64 pictures into <img> elements. No validation, no framework.
 */
const form = document.querySelector<HTMLFormElement>('#lookup')!;
form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const id = new FormData(form).get('id') as string;
  const response = await fetch(`/api/candidates/refId/${encodeURIComponent(id)}`, { headers: { 'X-Candidate-Lookup': '1' } });
  const body = JSON.parse(await response.text()) as {
    data: { status: string; identities?: Record<string, { type: string; value: string }> };
  };
  document.querySelector('#status')!.textContent = body.data.status;
  const pictures = document.querySelector('#pictures')!;
  pictures.replaceChildren();
  for (const attribute of Object.values(body.data.identities ?? {})) {
    if (attribute.type !== 'base64') continue;
    const img = document.createElement('img');
    img.src = `data:image/jpeg;base64,${attribute.value}`;
    img.style.maxHeight = '256px';
    pictures.append(img);
  }
});
