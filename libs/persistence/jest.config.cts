module.exports = {
  displayName: 'persistence',
  preset: '../../jest.preset.js',
  coverageDirectory: '../../coverage/libs/persistence',
};
