module.exports = {
  displayName: 'hub',
  preset: '../../jest.preset.js',
  coverageDirectory: '../../coverage/apps/hub',
};
