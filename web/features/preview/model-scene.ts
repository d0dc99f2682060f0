// The 3D scene of the STL and OBJ viewer. Loaded with import() only when a model is shown, so
// three.js and its loaders are a chunk of their own.
import {
  Box3, DirectionalLight, HemisphereLight, Mesh, MeshStandardMaterial, PerspectiveCamera, Scene, Sphere, Vector3,
  WebGLRenderer, type BufferGeometry, type Group, type Material, type Object3D,
} from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { OBJLoader } from 'three/examples/jsm/loaders/OBJLoader.js';
import { STLLoader } from 'three/examples/jsm/loaders/STLLoader.js';

export type ModelData = { kind: 'stl'; bytes: ArrayBuffer } | { kind: 'obj'; text: string };

function material(): MeshStandardMaterial {
  return new MeshStandardMaterial({ color: 0x9db8e8, metalness: 0.15, roughness: 0.55 });
}

/** The meshes below `root` (an OBJ is a group of them). */
function meshesOf(root: Object3D): Mesh<BufferGeometry, Material>[] {
  const found: Mesh<BufferGeometry, Material>[] = [];
  root.traverse((child) => {
    if (child instanceof Mesh) found.push(child as Mesh<BufferGeometry, Material>);
  });
  return found;
}

function modelOf(data: ModelData): Object3D {
  if (data.kind === 'stl') {
    const geometry: BufferGeometry = new STLLoader().parse(data.bytes);
    if (!geometry.getAttribute('normal')) geometry.computeVertexNormals();
    const mesh = new Mesh(geometry, material());
    // STL comes from CAD tools, whose up is +Z; three.js looks along Y-up.
    mesh.rotation.x = -Math.PI / 2;
    return mesh;
  }
  const group: Group = new OBJLoader().parse(data.text);
  for (const mesh of meshesOf(group)) {
    if (!mesh.geometry.getAttribute('normal')) mesh.geometry.computeVertexNormals();
    mesh.material = material();
  }
  return group;
}

/** Centres the model on the origin; answers the radius of its bounding sphere. */
function centre(model: Object3D): number {
  const box = new Box3().setFromObject(model);
  model.position.sub(box.getCenter(new Vector3()));
  return Math.max(box.getBoundingSphere(new Sphere()).radius, 1e-6);
}

/** Places the camera so a sphere of `radius` fits the view, across its narrower angle (a phone is tall). */
function placeCamera(camera: PerspectiveCamera, controls: OrbitControls, radius: number): void {
  const vertical = (camera.fov * Math.PI) / 180;
  const horizontal = 2 * Math.atan(Math.tan(vertical / 2) * camera.aspect);
  const distance = (radius / Math.sin(Math.min(vertical, horizontal) / 2)) * 1.1;
  camera.position.set(0.6, 0.45, 0.65).setLength(distance);
  camera.near = distance / 100;
  camera.far = distance * 100;
  camera.updateProjectionMatrix();
  controls.target.set(0, 0, 0);
  controls.minDistance = radius * 0.2;
  controls.maxDistance = distance * 10;
  controls.update();
}

function lights(scene: Scene): void {
  scene.add(new HemisphereLight(0xffffff, 0x39404d, 1.6));
  const key = new DirectionalLight(0xffffff, 2.2);
  key.position.set(1, 2, 1.5);
  scene.add(key);
  const rim = new DirectionalLight(0xbcd0ff, 0.8);
  rim.position.set(-1.5, -0.5, -1);
  scene.add(rim);
}

/**
 * Shows the model in `host` with orbit (drag), zoom (wheel or pinch) and pan; renders only when
 * the view changes. Returns the clean-up that frees the GPU resources.
 */
export function mountModel(host: HTMLElement, data: ModelData, label: string): () => void {
  const renderer = new WebGLRenderer({ antialias: true, alpha: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
  renderer.domElement.setAttribute('role', 'img');
  renderer.domElement.setAttribute('aria-label', label);
  renderer.domElement.className = 'preview-model-canvas';
  host.append(renderer.domElement);
  const scene = new Scene();
  const camera = new PerspectiveCamera(40, 1, 0.1, 1000);
  const controls = new OrbitControls(camera, renderer.domElement);
  const model = modelOf(data);
  const radius = centre(model);
  scene.add(model);
  lights(scene);
  const render = (): void => renderer.render(scene, camera);
  // Until the person moves the view, a new size frames the whole model again.
  let moved = false;
  controls.addEventListener('start', () => (moved = true));
  const resize = (): void => {
    const { clientWidth: width, clientHeight: height } = host;
    if (width === 0 || height === 0) return;
    renderer.setSize(width, height, false);
    camera.aspect = width / height;
    if (moved) camera.updateProjectionMatrix();
    else placeCamera(camera, controls, radius);
    render();
  };
  controls.addEventListener('change', render);
  const observer = new ResizeObserver(resize);
  observer.observe(host);
  resize();
  return () => {
    observer.disconnect();
    controls.dispose();
    for (const mesh of meshesOf(model)) {
      mesh.geometry.dispose();
      mesh.material.dispose();
    }
    renderer.dispose();
    renderer.domElement.remove();
  };
}
