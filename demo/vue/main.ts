/** The Vue 3 page: `<merchant-checkout>` used directly in a template (see vite.config.ts, `isCustomElement`). */
import 'merchant-checkout/define';
import { createApp } from 'vue';
import App from './App.vue';

createApp(App).mount('#app');
